// A recorded run's journal as the events the exec tree draws. A journal keeps each finished step
// under a key naming where it happened: the exec's path (`root`, `root/call_1:0` for the first exec
// a call's body opened), the model turn and the call (`root#2:tool:call_1`).

// As the journal escapes a call id inside a key (its separators), so a call and its key part meet.
const keyPart = (id) => id.replace(/[%:#/\0]/g, (ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}`)

/** `root/call_1:0#2:tool:call_1` → { path, iteration, kind, rest }. */
function placeOf(key) {
  const at = key.lastIndexOf('#')
  const [iteration, kind, ...rest] = key.slice(at + 1).split(':')
  return { path: key.slice(0, at), iteration: Number(iteration), kind, rest: rest.join(':') }
}

/** The events of a journal's entries: each exec, its turns, calls and the execs their bodies opened. */
export function eventsOfJournal(entries) {
  const execs = new Map()
  for (const entry of entries) {
    const place = placeOf(entry.key)
    if (!execs.has(place.path)) execs.set(place.path, { turns: new Map(), others: [] })
    const exec = execs.get(place.path)
    if (!exec.turns.has(place.iteration)) exec.turns.set(place.iteration, { tools: new Map(), others: [] })
    const turn = exec.turns.get(place.iteration)
    if (entry.kind === 'model') turn.model = entry
    else if (entry.kind === 'tool') turn.tools.set(place.rest, entry)
    else turn.others.push(entry)
  }
  const events = []
  const draw = (path, depth, parent) => {
    const exec = execs.get(path)
    if (!exec) return
    const turns = [...exec.turns.entries()].sort(([a], [b]) => a - b)
    const execId = turns.find(([, t]) => t.model?.execId)?.[1].model.execId ?? path
    events.push({ type: 'agent_start', execId, depth, ...parent, toolNames: [] })
    for (const [iteration, turn] of turns) {
      const message = turn.model?.message
      events.push({ type: 'turn_start', execId, depth, iteration, model: message?.model ?? 'recorded' })
      if (message) events.push({ type: 'message_end', execId, depth, message, replayed: true })
      const calls = Array.isArray(message?.content) ? message.content.filter((p) => p.type === 'toolCall') : []
      for (const call of calls) {
        events.push({
          type: 'tool_start',
          execId,
          depth,
          toolCallId: call.id,
          toolName: call.name,
          args: call.arguments,
        })
        const opened = `${path}/${keyPart(call.id)}:`
        for (let i = 0; execs.has(`${opened}${i}`); i++)
          draw(`${opened}${i}`, depth + 1, { parentExecId: execId, parentToolCallId: call.id })
        const done = turn.tools.get(keyPart(call.id))
        if (done)
          events.push({
            type: 'tool_end',
            execId,
            depth,
            toolCallId: call.id,
            toolName: call.name,
            isError: done.receipt?.status === 'error',
            durationMs: done.receipt?.durationMs,
            receipt: done.receipt,
            result: done.result,
          })
      }
      // Decisions, answers, steering and compactions: a line each, with what the journal kept.
      for (const other of turn.others) events.push({ ...other, type: `recorded ${other.kind}`, execId, depth })
    }
    const iterationsUsed = turns.filter(([, t]) => t.model).length
    events.push({ type: 'agent_end', execId, depth, result: { status: 'recorded', iterationsUsed } })
  }
  draw('root', 0, {})
  return events
}
