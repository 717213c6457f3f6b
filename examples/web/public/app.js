// The page: no build step. It opens a run (POST /api/runs), reads its events as SSE and draws the
// answer, and the tree of execs with @nestor/web's exec tree (exec-tree.js, the studio's too).
// Every event is kept in sessionStorage under its position, so a reload redraws what was seen and
// reconnects after the last position (resume by Last-Event-ID).
'use strict'

const RUN_KEY = 'nestor-web-run'
// The chat this browser continues: kept on the server when it keeps chats (GET /api/chat/{id}/messages).
const CHAT_KEY = 'nestor-web-chat'
const chatId = localStorage.getItem(CHAT_KEY) ?? crypto.randomUUID()
localStorage.setItem(CHAT_KEY, chatId)
const eventKey = (position) => `nestor-web-event-${position}`
const EVENT_TYPES = [
  'agent_start',
  'turn_start',
  'message_start',
  'message_delta',
  'message_end',
  'tool_start',
  'tool_update',
  'tool_end',
  'approval_required',
  'input_required',
  'retry',
  'turn_end',
  'context_compacted',
  'handoff',
  'guardrail',
  'agent_end',
]
const $ = (id) => document.getElementById(id)

// What a test (or a curious reader) can check: every position seen, in order.
const seen = { positions: [], duplicates: 0, gaps: 0, ended: false, execId: undefined }
window.__nestor = seen

let run // { execId, last, ended }
let source // EventSource
let tree // the run's exec tree (window.NestorExecTree)
let currentTurnEl

function resetView() {
  $('tree').textContent = ''
  tree = new window.NestorExecTree.ExecTree($('tree'))
  currentTurnEl = undefined
  $('transcript').textContent = ''
  $('approvals').textContent = ''
  $('final').hidden = true
  $('final').textContent = ''
}

function setStatus(status) {
  $('status').textContent = status
  $('status').dataset.status = status
}

const { el } = window.NestorExecTree

// ─── Drawing one event ────────────────────────────────────────────────────────
// The tree draws every event; the page adds the conversation, the approvals and questions, the answer.
function apply(event) {
  tree.apply(event)
  switch (event.type) {
    case 'message_start':
      if (event.depth === 0 && event.message.role === 'user') {
        const text = typeof event.message.content === 'string' ? event.message.content : ''
        $('transcript').append(el('p', 'turn user', `you: ${text}`))
      }
      if (event.depth === 0 && event.message.role === 'assistant') currentTurnEl = undefined
      return
    case 'message_delta': {
      if (event.delta.kind !== 'text' || event.depth !== 0) return
      if (!currentTurnEl) $('transcript').append((currentTurnEl = el('p', 'turn assistant', '')))
      currentTurnEl.textContent += event.delta.text
      return
    }
    case 'tool_end': {
      // The call ended: its approval and its questions wait no more.
      const selector = `[data-tool-call-id="${CSS.escape(event.toolCallId)}"]`
      for (const card of document.querySelectorAll(`.approval${selector}, .question${selector}`)) card.remove()
      if (!document.querySelector('.approval, .question') && run && !run.ended) setStatus('running')
      return
    }
    case 'approval_required':
      for (const request of event.approvals) showApproval(request)
      setStatus('waiting')
      return
    case 'input_required':
      for (const input of event.inputs)
        if (!document.querySelector(`.question[data-input-id="${CSS.escape(input.id)}"]`))
          $('approvals').append(window.questionCard(input, post))
      setStatus('waiting')
      return
    case 'agent_end': {
      if (event.depth !== 0) return
      $('final').hidden = false
      const error = event.result.error
      $('final').textContent = event.result.text || (error ? `${error.code}: ${error.message}` : '(no answer)')
      $('final').dataset.status = event.result.status
      setStatus(event.result.status)
      return
    }
  }
}

function showApproval(request) {
  if (document.querySelector(`.approval[data-tool-call-id="${CSS.escape(request.toolCallId)}"]`)) return
  const card = el('div', 'approval')
  card.dataset.toolCallId = request.toolCallId
  card.append(el('strong', '', `Allow ${request.toolName}?`), el('pre', '', JSON.stringify(request.args, null, 2)))
  // What the tool's prepare() says the call would do (a diff, a plan), shown as it is.
  if (request.preview !== undefined) {
    const text = typeof request.preview === 'string' ? request.preview : JSON.stringify(request.preview, null, 2)
    card.append(el('pre', 'preview', text))
  }
  const approve = el('button', 'approve', 'Approve')
  const reject = el('button', 'reject', 'Reject')
  approve.type = reject.type = 'button'
  approve.onclick = () => decide(card, 'approve', { toolCallId: request.toolCallId })
  reject.onclick = () => decide(card, 'reject', { toolCallId: request.toolCallId, reason: 'the user said no' })
  card.append(approve, ' ', reject)
  $('approvals').append(card)
}

async function decide(card, action, body) {
  for (const b of card.querySelectorAll('button')) b.disabled = true
  const response = await post(action, body)
  if (!response.ok) {
    card.append(el('div', 'meta', `could not ${action}: ${(await response.json()).error?.message ?? response.status}`))
    for (const b of card.querySelectorAll('button')) b.disabled = false
  }
}

function post(action, body) {
  return fetch(`/api/runs/${encodeURIComponent(run.execId)}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

// The runs of this browser's session (the server lists only the caller's own).
async function listRuns() {
  const response = await fetch('/api/runs')
  if (!response.ok) return
  const { runs } = await response.json()
  $('runs').replaceChildren(
    ...runs.map((r) => {
      const li = el('li', 'run', `${r.execId}${r.live ? ' · live' : ''}`)
      li.dataset.execId = r.execId
      return li
    }),
  )
}

// ─── The stream ───────────────────────────────────────────────────────────────
function saveRun() {
  sessionStorage.setItem(RUN_KEY, JSON.stringify(run))
}

function onFrame(message) {
  const position = Number(message.lastEventId)
  if (position <= run.last) {
    seen.duplicates++
    return
  }
  if (position !== run.last + 1) seen.gaps++
  const event = JSON.parse(message.data)
  sessionStorage.setItem(eventKey(position), message.data)
  run.last = position
  saveRun()
  seen.positions.push(position)
  apply(event)
}

function connect() {
  source?.close()
  // The first connection of a page has no Last-Event-ID header to send: the position goes in the
  // query. EventSource's own reconnects send the header, which the server prefers.
  source = new EventSource(`/api/runs/${encodeURIComponent(run.execId)}/events?lastEventId=${run.last}`)
  for (const type of EVENT_TYPES) source.addEventListener(type, onFrame)
  source.addEventListener('end', () => {
    source.close()
    void listRuns()
    void loadConversation()
    run.ended = true
    seen.ended = true
    saveRun()
  })
  source.addEventListener('stream_error', (message) => {
    source.close()
    setStatus('failed')
    $('transcript').append(el('p', 'meta', `stream error: ${JSON.parse(message.data).message}`))
  })
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED && !run.ended) setStatus('disconnected')
  }
}

function clearStored() {
  const old = JSON.parse(sessionStorage.getItem(RUN_KEY) ?? 'null')
  if (old) for (let p = 1; p <= old.last; p++) sessionStorage.removeItem(eventKey(p))
  sessionStorage.removeItem(RUN_KEY)
}

async function start(input) {
  clearStored()
  resetView()
  seen.positions = []
  seen.duplicates = seen.gaps = 0
  seen.ended = false
  setStatus('running')
  const response = await fetch('/api/runs', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-chat-id': chatId },
    body: JSON.stringify({ input }),
  })
  const body = await response.json()
  if (!response.ok) {
    setStatus('failed')
    $('transcript').append(el('p', 'meta', body.error?.message ?? `HTTP ${response.status}`))
    return
  }
  run = { execId: body.execId, last: 0, ended: false }
  seen.execId = run.execId
  saveRun()
  $('steering').hidden = false
  connect()
  void listRuns()
}

// A reload: redraw every stored event, then read on after the last one.
function restore() {
  const stored = JSON.parse(sessionStorage.getItem(RUN_KEY) ?? 'null')
  if (!stored) return
  run = stored
  seen.execId = run.execId
  resetView()
  setStatus('running')
  for (let p = 1; p <= run.last; p++) {
    const data = sessionStorage.getItem(eventKey(p))
    if (data === null) continue
    seen.positions.push(p)
    apply(JSON.parse(data))
  }
  seen.ended = run.ended
  $('steering').hidden = run.ended
  if (!run.ended) connect()
}

$('ask').addEventListener('submit', (e) => {
  e.preventDefault()
  const input = $('prompt').value.trim()
  if (input) void start(input)
})
$('steering').addEventListener('submit', async (e) => {
  e.preventDefault()
  const message = $('steer').value.trim()
  if (!message || !run) return
  const response = await post('steer', { message })
  if (response.ok) $('steer').value = ''
})
// The stored chat, as the server keeps it (nothing when it keeps none, or the chat is another's).
async function loadConversation() {
  const response = await fetch(`/api/chat/${encodeURIComponent(chatId)}/messages`)
  const messages = response.ok ? await response.json() : []
  const list = $('conversation')
  list.replaceChildren()
  for (const message of Array.isArray(messages) ? messages : []) {
    const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')
    const item = el('li', message.role, text)
    item.dataset.role = message.role
    list.append(item)
  }
  list.dataset.loaded = String(list.children.length)
}

restore()
void listRuns()
void loadConversation()
