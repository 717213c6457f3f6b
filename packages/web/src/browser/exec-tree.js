// The exec tree: one component for every page that draws runs (the studio's live runs and forks,
// the eval report's cases). A plain browser script, no module and no build: a page loads it, or
// inlines its text whole (the eval report does), and finds it as `window.NestorExecTree`.
// It draws a run from its events as they come (ExecTree.apply); a recorded tree (evals' ExecNode)
// is drawn from the events it stands for (eventsOfNode). What a model or tool wrote goes in with
// textContent, never as HTML.
'use strict'
;(() => {
  function el(tag, className, text) {
    const node = document.createElement(tag)
    if (className) node.className = className
    if (text !== undefined) node.textContent = String(text)
    return node
  }

  const json = (value) => JSON.stringify(value, null, 2) ?? String(value)
  // Call ids are unique within an exec, not across a tree (two children may each make `call_1`).
  const callKey = (execId, toolCallId) => `${execId}\u0000${toolCallId}`
  const short = (text, max = 120) => (text.length > max ? `${text.slice(0, max)}…` : text)

  /** The text of a tool result's or message's content parts; other parts as `[type]` when `marks`. */
  function textOf(content, marks = true) {
    if (typeof content === 'string') return content
    if (!Array.isArray(content)) return ''
    return content.map((part) => (part.type === 'text' ? part.text : marks ? `[${part.type}]` : '')).join('')
  }

  /** A price when every turn was priced (usage.cost is absent otherwise, never a guess). */
  function usageLine(usage) {
    if (!usage) return ''
    const cost = usage.cost ? ` · $${usage.cost.total.toFixed(usage.cost.total < 0.01 ? 6 : 4)}` : ''
    return `${usage.total} tokens (${usage.input} in, ${usage.output} out)${cost}`
  }

  /** A folded block: a one-line summary and, opened, the whole value (drawn then: most folds stay shut). */
  function folded(summary, value, className = 'fold') {
    const details = el('details', className)
    details.append(el('summary', '', summary))
    details.addEventListener('toggle', () => {
      if (details.open && details.children.length === 1)
        details.append(el('pre', '', typeof value === 'string' ? value : json(value)))
    })
    return details
  }

  function execNode(name, depth, meta) {
    const node = el('details', 'exec')
    node.open = true
    node.dataset.depth = String(depth)
    node.dataset.status = 'running'
    const status = el('span', 'meta', meta)
    const summary = el('summary')
    const label = el('span', 'exec-name', `${name} (depth ${depth}) `)
    summary.append(label, status)
    const steps = el('ol', 'steps')
    const text = el('div', 'exec-text')
    node.append(summary, steps, text)
    return { node, steps, text, status, name: label }
  }

  function toolLine(name, args) {
    const li = el('li', 'tool')
    li.dataset.state = 'running'
    li.append(el('span', 'tool-head', `○ ${name} ${short(JSON.stringify(args ?? {}), 80)}`), folded('arguments', args))
    return li
  }

  // A long exec's older steps fold away in groups: a run of hundreds of turns opens with its newest
  // steps laid out, not all of them (a folded group's lines are not laid out until it is opened).
  const GROUP = 50

  function foldOlderSteps(exec) {
    const loose = [...exec.steps.children].filter((child) => child.dataset.iteration !== undefined)
    if (loose.length <= GROUP) return
    const older = loose.slice(0, GROUP)
    const group = el('li', 'step-group')
    const fold = el('details', 'fold')
    fold.append(el('summary', '', `steps ${older[0].dataset.iteration}–${older.at(-1).dataset.iteration}`))
    const list = el('ol', 'steps')
    older[0].before(group)
    list.append(...older)
    fold.append(list)
    group.append(fold)
  }

  /** A run's tree, drawn from its events as they come. `root` is the element it draws into. */
  class ExecTree {
    constructor(root) {
      this.root = root
      this.execs = new Map()
      this.tools = new Map()
    }

    apply(event) {
      const exec = this.execs.get(event.execId)
      switch (event.type) {
        case 'agent_start':
          return this.start(event)
        case 'turn_start': {
          if (!exec) return
          const budget = event.iterationBudget === undefined ? '' : `/${event.iterationBudget}`
          exec.step = el('li', 'step', `step ${event.iteration}${budget} · ${event.model}`)
          exec.step.dataset.iteration = String(event.iteration)
          exec.steps.append(exec.step)
          foldOlderSteps(exec)
          return
        }
        case 'message_delta':
          if (exec && event.delta.kind === 'text') exec.text.textContent += event.delta.text
          return
        // Drawn elsewhere (the turns, the events list), or nothing to add to the tree.
        case 'turn_end':
        case 'partial_output':
          return
        case 'message_start':
          if (exec && event.message.role === 'assistant' && exec.text.textContent) exec.text.textContent += '\n'
          return
        case 'message_end':
          // A replayed message streamed no deltas: its text comes whole.
          if (exec && event.message.role === 'assistant' && (event.replayed || event.edited))
            exec.text.textContent += textOf(event.message.content, false)
          return
        case 'tool_start': {
          // A call that waited when its run paused starts again on resume: its line goes on.
          const known = this.tools.get(callKey(event.execId, event.toolCallId))
          if (known) return void (known.dataset.state = 'running')
          const li = toolLine(event.toolName, event.args)
          li.dataset.toolCallId = event.toolCallId
          if (event.replayed) li.dataset.replayed = 'true'
          this.tools.set(callKey(event.execId, event.toolCallId), li)
          if (exec) {
            exec.runningTool = event.toolName
            ;(exec.step ?? exec.steps).append(li)
          }
          return
        }
        case 'tool_end':
          return this.endTool(event)
        case 'guardrail':
          return this.guardrail(event, exec)
        case 'context_compacted':
          return this.compacted(event, exec)
        case 'handoff':
          return this.handoff(event, exec)
        case 'input_required':
          return this.asked(event, exec)
        case 'agent_end': {
          if (!exec) return
          const r = event.result
          const steps = r.iterationsUsed === undefined ? '' : `${r.iterationsUsed} steps`
          exec.status.textContent = [r.status, usageLine(r.totalUsage), steps].filter(Boolean).join(' · ')
          exec.node.dataset.status = r.status
          return
        }
        default:
          return this.other(event, exec)
      }
    }

    start(event) {
      // A resumed exec starts again under its id: its node goes on (a resume, or a replayed child).
      const again = this.execs.get(event.execId)
      if (again) {
        again.node.dataset.status = 'running'
        again.status.textContent = 'resumed · running'
        return
      }
      const parent = event.parentExecId ? this.execs.get(event.parentExecId) : undefined
      // A compaction's summarizer and a classifier guardrail ask their models in execs no call opened.
      const opener = event.parentToolCallId ?? ''
      const name =
        event.depth === 0
          ? 'root'
          : opener.startsWith('context-')
            ? 'context summary'
            : opener.startsWith('guardrail-')
              ? 'guardrail classifier'
              : (parent?.runningTool ?? 'exec')
      const exec = execNode(name, event.depth, `running · tools: ${event.toolNames.join(', ') || 'none'}`)
      exec.node.dataset.execId = event.execId
      this.execs.set(event.execId, exec)
      const call = event.parentToolCallId
        ? this.tools.get(callKey(event.parentExecId, event.parentToolCallId))
        : undefined
      ;(call ?? parent?.step ?? parent?.steps ?? this.root).append(exec.node)
    }

    endTool(event) {
      const li = this.tools.get(callKey(event.execId, event.toolCallId))
      if (!li) return
      li.dataset.state = event.isError ? 'error' : 'done'
      // A fork's edited result: the body did not run, the edit stands in for what it returned.
      if (event.edited) li.dataset.edited = 'true'
      const receipt = event.receipt ?? {}
      const marks = [event.replayed && 'replayed', event.edited && 'edited'].filter(Boolean).join(', ')
      li.querySelector('.tool-head').textContent =
        `${event.isError ? '✗' : '✓'} ${event.toolName} · ${event.durationMs ?? '–'} ms · ${receipt.status ?? ''}${marks ? ` · ${marks}` : ''}`
      const result = textOf(event.result?.content)
      const out = folded(`result: ${short(result, 100)}`, result, 'fold result')
      out.dataset.result = result
      li.append(out, folded('receipt', receipt, 'fold receipt'))
    }

    /** A guardrail's verdict: under the call it checked, or a step of its exec (input, output). */
    guardrail(event, exec) {
      const where = event.phase ? `, ${event.phase} the call` : ''
      const why = event.reason ? ` — ${event.reason}` : ''
      const call = event.toolCallId ? this.tools.get(callKey(event.execId, event.toolCallId)) : undefined
      const text = `guardrail ${event.name} (${event.kind}${where}): ${event.verdict}${why}`
      const line = el('li', call ? 'guardrail' : 'step guardrail', text)
      line.dataset.verdict = event.verdict
      line.dataset.name = event.name
      ;(call ?? exec?.steps ?? this.root).append(line)
    }

    /** A compaction is a step of its exec: what was cut, and how much smaller the request got. */
    compacted(event, exec) {
      const { before, after } = event
      const line = el(
        'li',
        'step compaction',
        `context compacted (${event.strategy}, ${event.reason}): ${before.messages} → ${after.messages} messages, ~${before.tokens} → ~${after.tokens} tokens`,
      )
      line.dataset.strategy = event.strategy
      ;(exec?.steps ?? this.root).append(line)
    }

    /** Another agent answers from here on: a line under the transfer call, and the exec's name says who. */
    handoff(event, exec) {
      const line = el('li', 'handoff', `${event.from ?? 'the agent'} hands over to ${event.to}`)
      line.dataset.to = event.to
      const call = this.tools.get(callKey(event.execId, event.toolCallId))
      ;(call ?? exec?.step ?? exec?.steps ?? this.root).append(line)
      if (!exec) return
      exec.node.dataset.agent = event.to
      exec.name.textContent = `${event.to} (depth ${event.depth}) `
    }

    /** A tool's questions (ctx.ask), under the call that asks; the run's forms answer them. */
    asked(event, exec) {
      for (const input of event.inputs) {
        const line = el('li', 'asked', `asks: ${input.question}`)
        line.dataset.inputId = input.id
        const call = this.tools.get(callKey(event.execId, input.toolCallId))
        ;(call ?? exec?.step ?? exec?.steps ?? this.root).append(line)
      }
    }

    /** Events this page has no special drawing for (approvals, compactions, retries, newer kinds): a line with their JSON. */
    other(event, exec) {
      const { type, execId, depth, seq, timestamp, parentExecId, parentToolCallId, ...rest } = event
      const line = el('li', 'event')
      line.dataset.type = type
      line.append(folded(`${type}`, rest))
      ;(exec?.step ?? exec?.steps ?? this.root).append(line)
    }
  }

  /**
   * The events a recorded tree stands for (evals' ExecNode: name, status, text, usage, and its tool
   * calls with the execs their bodies opened), in the order a run would have sent them.
   */
  function eventsOfNode(node, parent) {
    const execId = node.execId
    const events = [
      {
        type: 'agent_start',
        execId,
        depth: node.depth,
        parentExecId: parent?.execId,
        parentToolCallId: parent?.toolCallId,
        toolNames: [...new Set((node.tools ?? []).map((call) => call.toolName))],
      },
    ]
    for (const call of node.tools ?? []) {
      const { toolCallId, toolName } = call
      events.push({ type: 'tool_start', execId, toolCallId, toolName, args: call.args })
      for (const child of call.children ?? []) events.push(...eventsOfNode(child, { execId, toolCallId }))
      events.push({
        type: 'tool_end',
        execId,
        toolCallId,
        toolName,
        isError: call.isError === true,
        durationMs: call.durationMs,
        receipt: call.status === undefined ? {} : { status: call.status },
        result: { content: call.result === undefined ? [] : [{ type: 'text', text: call.result }] },
        replayed: call.replayed === true,
        edited: call.edited === true,
      })
    }
    if (node.text) events.push({ type: 'message_delta', execId, delta: { kind: 'text', text: node.text } })
    const result = { status: node.status ?? 'unknown', totalUsage: node.usage, iterationsUsed: node.iterations }
    events.push({ type: 'agent_end', execId, depth: node.depth, result })
    return events
  }

  window.NestorExecTree = { ExecTree, eventsOfNode, el, folded, json, textOf, usageLine }
})()
