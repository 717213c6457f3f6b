// One run on the page, live: its exec tree, each turn's request and response, the calls waiting
// for approval (approve, reject, edit), the questions its tools ask (ctx.ask), steering and aborting,
// and every event as it streamed.
import { follow } from './stream.js'

const { el, ExecTree, folded, json, textOf, usageLine } = window.NestorExecTree

export const post = (path, body) =>
  fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

async function problemOf(response) {
  const body = await response.json().catch(() => ({}))
  return body.error?.message ?? `HTTP ${response.status}`
}

/** Draws run `execId` into `root` and follows it; `state` is what a test (or reader) can check. */
export function runView(root, execId, { title, canApprove, onEnd }) {
  let resumed = () => {}
  const state = { execId, positions: [], ended: false, status: undefined }
  const status = el('span', 'status', 'running')
  status.dataset.status = 'running'
  const head = el('h2', '', `${title} `)
  head.append(status)
  const approvals = el('div', 'approvals')
  const controls = controlsOf(execId)
  const tree = el('div', 'tree')
  const turns = el('ol', 'turns')
  const events = el('ol', 'events')
  const turnsFold = lazyList('Turns: each request and response', 'turns-fold', turns, () => turnList.map(turnCard))
  const eventsFold = lazyList('Events', 'events-fold', events, () => seen.map(eventLine))
  root.replaceChildren(head, el('div', 'meta', execId), approvals, controls, el('h3', '', 'Exec tree'), tree)
  root.append(turnsFold, eventsFold)
  const seen = []
  const eventLine = ([position, type, depth]) => {
    const line = el('li', 'event-line', `${position} ${type} · depth ${depth}`)
    line.dataset.type = type
    return line
  }
  // A question's form posts to the app's gate while the run waits live; a paused run keeps the
  // answers for its resume (its schema checks them then).
  const answerLive = (action, body) => post(`api/runs/${encodeURIComponent(execId)}/${action}`, body)
  const answers = new Map()
  const answerOnResume = async (_action, { id, value }) => {
    answers.set(id, value)
    return new Response(null, { status: 204 })
  }
  // Chosen when sent: a page opened at a run draws its forms before it knows whether the app has a gate.
  const answer = async (action, body) => ((await canApprove()) ? answerLive : answerOnResume)(action, body)
  const execTree = new ExecTree(tree)
  // Each exec's messages so far (they only grow: a turn keeps how many it was sent), and its turns.
  const history = new Map()
  const turnList = []
  const lastTurn = new Map()

  const setStatus = (value) => {
    status.textContent = value
    status.dataset.status = value
    state.status = value
  }

  function onEvent(event, position) {
    state.positions.push(position)
    execTree.apply(event)
    seen.push([position, event.type, event.depth])
    if (eventsFold.dataset.drawn) events.append(eventLine(seen.at(-1)))
    turnsOf(event)
    if (event.type === 'approval_required') {
      for (const request of event.approvals) approvals.append(approvalCard(execId, request, canApprove))
      setStatus('waiting')
    }
    if (event.type === 'input_required') {
      for (const input of event.inputs)
        if (!approvals.querySelector(`.question[data-input-id="${CSS.escape(input.id)}"]`))
          approvals.append(window.questionCard(input, answer))
      setStatus('waiting')
    }
    if (event.type === 'tool_end') {
      // The call's approval card and its questions' forms: it has its result.
      for (const card of approvals.querySelectorAll(`[data-tool-call-id="${CSS.escape(event.toolCallId)}"]`))
        card.remove()
      if (!approvals.children.length && !state.ended) setStatus('running')
    }
    if (event.type === 'agent_end' && event.depth === 0) {
      setStatus(event.result.status)
      if (event.result.status === 'paused') approvals.append(resumeButton(execId, approvals, answers, () => resumed()))
    }
  }

  // Each turn: the messages the model was sent and its answer, kept to draw when the list is opened.
  function turnsOf(event) {
    if (event.type === 'agent_start') history.set(event.execId, [...event.input])
    if (event.type === 'turn_start') {
      const turn = { event, sent: history.get(event.execId)?.length ?? 0 }
      turnList.push(turn)
      lastTurn.set(event.execId, turn)
      if (turnsFold.dataset.drawn) turns.append(turnCard(turn))
    }
    if (event.type === 'message_end') {
      history.get(event.execId)?.push(event.message)
      const turn = lastTurn.get(event.execId)
      if (turn && event.message.role === 'assistant') {
        turn.response = event.message
        turn.card?.append(responseFold(event.message))
      }
    }
  }

  function turnCard(turn) {
    const { execId: id, depth, iteration, model } = turn.event
    const card = el('li', 'turn')
    card.dataset.execId = id
    card.append(el('div', '', `depth ${depth} · step ${iteration} · ${model}`))
    card.append(folded(`request: ${turn.sent} messages`, history.get(id)?.slice(0, turn.sent) ?? [], 'fold request'))
    if (turn.response) card.append(responseFold(turn.response))
    turn.card = card
    return card
  }

  const handlers = {
    onEvent,
    onEnd: (end) => {
      state.ended = true
      // When the whole run was drawn, from the page's start: what the browser test reports.
      state.drawnAt = performance.now()
      if (end.status) setStatus(end.status)
      controls.hidden = true
      onEnd?.(end)
    },
    onError: (error) => {
      setStatus('failed')
      root.append(el('p', 'problem', `stream error: ${error.message}`))
    },
  }
  let stop = follow(execId, handlers)
  // A resumed run goes on under the same id, its positions counting on: read on after the last.
  resumed = () => {
    approvals.replaceChildren()
    answers.clear()
    state.ended = false
    controls.hidden = false
    setStatus('running')
    stop = follow(execId, handlers, state.positions.at(-1) ?? 0)
  }
  return { state, stop: () => stop() }
}

/** A list drawn when first opened (a long run has thousands of lines); then `data-drawn`, and its owner grows it. */
function lazyList(summary, className, list, lines) {
  const details = el('details', `fold ${className}`)
  details.append(el('summary', '', summary), list)
  details.addEventListener('toggle', () => {
    if (!details.open || details.dataset.drawn) return
    details.dataset.drawn = 'true'
    list.append(...lines())
  })
  return details
}

function responseFold(m) {
  const calls = Array.isArray(m.content) ? m.content.filter((p) => p.type === 'toolCall').map((p) => p.name) : []
  const said = textOf(m.content, false) || (calls.length ? `calls ${calls.join(', ')}` : '(empty)')
  return folded(`response: ${said.slice(0, 100)} · ${usageLine(m.usage)}`, m, 'fold response')
}

function controlsOf(execId) {
  const form = el('form', 'steer')
  const input = el('input')
  input.name = 'message'
  input.placeholder = 'Steer the run: a message it reads before its next step'
  const steer = el('button', 'steer-button', 'Steer')
  const abort = el('button', 'abort', 'Abort')
  abort.type = 'button'
  const note = el('span', 'meta')
  form.append(input, steer, abort, note)
  form.addEventListener('submit', async (e) => {
    e.preventDefault()
    if (!input.value.trim()) return
    const response = await post(`api/runs/${encodeURIComponent(execId)}/steer`, { message: input.value })
    note.textContent = response.ok ? 'steered' : await problemOf(response)
    if (response.ok) input.value = ''
  })
  abort.onclick = async () => {
    const response = await post(`api/runs/${encodeURIComponent(execId)}/abort`, { reason: 'aborted from the studio' })
    note.textContent = response.ok ? 'aborting' : await problemOf(response)
  }
  return form
}

function approvalCard(execId, request, canApprove) {
  const card = el('div', 'approval')
  card.dataset.toolCallId = request.toolCallId
  card.append(el('strong', '', `Allow ${request.toolName}? (depth ${request.depth ?? 0})`))
  // What the tool's prepare() says the call would do (a diff, a plan), shown as it is.
  if (request.preview !== undefined)
    card.append(el('pre', 'preview', typeof request.preview === 'string' ? request.preview : json(request.preview)))
  const args = el('textarea', 'args')
  args.value = json(request.args)
  args.rows = Math.min(12, args.value.split('\n').length + 1)
  card.append(args)
  const note = el('div', 'meta')
  const button = (className, text, onclick) => {
    const b = el('button', className, text)
    b.type = 'button'
    b.onclick = onclick
    return b
  }
  const editedArgs = () => {
    try {
      return JSON.parse(args.value)
    } catch (error) {
      note.textContent = `the arguments are not JSON: ${error.message}`
      return undefined
    }
  }
  // No gate to answer (a runtime without `approve` pauses the run): the choice waits for the resume.
  const choose = (choice) => {
    card.dataset.choice = choice
    note.textContent = `${choice}: applied when you resume the paused run`
  }
  const decide = async (action, body) => {
    if (!(await canApprove())) return choose(action)
    for (const b of card.querySelectorAll('button')) b.disabled = true
    const response = await post(`api/runs/${encodeURIComponent(execId)}/${action}`, {
      toolCallId: request.toolCallId,
      ...body,
    })
    if (response.ok) card.dataset.decided = action
    else {
      note.textContent = `could not ${action}: ${await problemOf(response)}`
      for (const b of card.querySelectorAll('button')) b.disabled = false
    }
  }
  card.append(
    button('approve', 'Approve', () => decide('approve', {})),
    button('edit', 'Approve with these arguments', () => {
      const edited = editedArgs()
      if (edited !== undefined) void decide('edit', { args: edited })
    }),
    button('reject', 'Reject', () => decide('reject', { reason: 'rejected in the studio' })),
    note,
  )
  return card
}

/** For a run that paused for approval or answers: resumes it with the choices made on its cards. */
function resumeButton(execId, approvals, answers, onResumed) {
  const wrap = el('div', 'resume')
  const go = el('button', 'resume-button', 'Resume with these decisions')
  go.type = 'button'
  const note = el('span', 'meta')
  go.onclick = async () => {
    const decisions = { approve: [], reject: [], edit: [], answers: Object.fromEntries(answers) }
    for (const card of approvals.querySelectorAll('.approval[data-choice]')) {
      const id = card.dataset.toolCallId
      if (card.dataset.choice === 'approve') decisions.approve.push(id)
      if (card.dataset.choice === 'reject') decisions.reject.push({ toolCallId: id, reason: 'rejected in the studio' })
      if (card.dataset.choice === 'edit')
        decisions.edit.push({ toolCallId: id, args: JSON.parse(card.querySelector('textarea.args').value) })
    }
    const response = await post(`api/runs/${encodeURIComponent(execId)}/resume`, decisions)
    const body = await response.json().catch(() => ({}))
    if (!response.ok) return void (note.textContent = body.error?.message ?? `HTTP ${response.status}`)
    onResumed()
  }
  wrap.append(go, note)
  return wrap
}
