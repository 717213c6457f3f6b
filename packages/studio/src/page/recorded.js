// A recorded run (a journal's entries, one per finished step) and forking it: pick a step, edit
// what happened there, and watch the fork's tree replay up to it and go on live, beside the
// original's tree.
import { eventsOfJournal } from './journal-tree.js'
import { post, runView } from './run-view.js'

const { el, ExecTree, eventsOfNode, folded, textOf } = window.NestorExecTree

/** A tree drawn whole from recorded events (a journal's, a report's). */
function treeOf(events) {
  const root = el('div', 'tree')
  const tree = new ExecTree(root)
  for (const event of events) tree.apply(event)
  return root
}

/** One line saying what a step did; the whole entry folds open under it. */
function summaryOf(entry) {
  if (entry.kind === 'model') {
    const content = entry.message?.content
    const calls = Array.isArray(content) ? content.filter((p) => p.type === 'toolCall').map((p) => p.name) : []
    return textOf(content, false) || (calls.length ? `called ${calls.join(', ')}` : '(empty answer)')
  }
  if (entry.kind === 'tool') return `${entry.receipt?.toolName ?? 'tool'} → ${textOf(entry.result?.content)}`
  if (entry.kind === 'decision')
    return entry.decision?.approved ? 'approved' : `rejected: ${entry.decision?.reason ?? ''}`
  return entry.kind
}

/** What the edit box starts with at a step: the result, the answer, or the decision as it was. */
function editOf(entry) {
  if (entry.kind === 'tool') return textOf(entry.result?.content)
  if (entry.kind === 'model') return textOf(entry.message?.content)
  return JSON.stringify(entry.decision ?? { approved: true })
}

function editBody(entry, text) {
  if (entry.kind === 'tool') return { toolResult: text }
  if (entry.kind === 'model') return { message: text }
  return { decision: JSON.parse(text) }
}

export async function recordedView(root, runId, overview, watch) {
  const response = await fetch(`api/recorded/${encodeURIComponent(runId)}`)
  const body = await response.json().catch(() => ({}))
  const original = el('section', 'original')
  const forkPane = el('section', 'fork-pane')
  root.replaceChildren(el('div', 'side-by-side'))
  root.firstChild.append(original, forkPane)
  original.append(el('h2', '', `Recorded run ${runId}`), el('div', 'meta', body.source ?? ''))
  if (!response.ok) return original.append(el('p', 'problem', body.error?.message ?? `HTTP ${response.status}`))
  if (body.problem) original.append(el('p', 'problem', body.problem))
  if (!body.entries.length && !body.problem) original.append(el('p', 'problem', 'this journal holds no steps'))
  // The run as a tree, beside the fork's; below it each step, to fork at.
  original.append(el('h3', '', 'Exec tree'), treeOf(eventsOfJournal(body.entries)), el('h3', '', 'Steps'))
  const list = el('ol', 'entries')
  for (const entry of body.entries) {
    const li = el('li', 'entry')
    li.dataset.key = entry.key
    li.dataset.kind = entry.kind
    li.append(el('code', 'key', entry.key), ' ', el('span', 'what', summaryOf(entry).slice(0, 160)))
    li.append(folded('entry', entry))
    if (overview.fork && ['tool', 'model', 'decision'].includes(entry.kind))
      li.append(forkForm(runId, entry, forkPane, overview, watch))
    list.append(li)
  }
  original.append(list)
}

function forkForm(runId, entry, pane, overview, watch) {
  const form = el('form', 'fork')
  const text = el('textarea', 'edit')
  text.value = editOf(entry)
  text.rows = 3
  const go = el('button', 'fork-button', 'Fork here with this edit')
  const note = el('span', 'meta')
  form.append(text, go, note)
  form.hidden = true
  const open = el('button', 'open-fork', 'Fork…')
  open.type = 'button'
  open.onclick = () => (form.hidden = !form.hidden)
  form.addEventListener('submit', async (e) => {
    e.preventDefault()
    let edit
    try {
      edit = editBody(entry, text.value)
    } catch (error) {
      note.textContent = `a decision is JSON: ${error.message}`
      return
    }
    const response = await post(`api/recorded/${encodeURIComponent(runId)}/fork`, { at: entry.key, edit })
    const body = await response.json().catch(() => ({}))
    if (!response.ok) return void (note.textContent = body.error?.message ?? `HTTP ${response.status}`)
    note.textContent = `forked as ${body.runId}`
    watch(
      runView(pane, body.execId, { title: `Fork of ${runId} at ${entry.key}`, canApprove: () => overview.approvals }),
    )
  })
  const wrap = el('div', 'fork-at')
  wrap.append(open, form)
  return wrap
}

/** An eval report: its verdict, and each case with its scores and exec tree. */
export async function reportView(root, index) {
  const body = await (await fetch(`api/reports/${index}`)).json()
  root.replaceChildren(el('h2', '', `Eval report ${body.path ?? ''}`))
  if (body.problem) return root.append(el('p', 'problem', `${body.path} ${body.problem}`))
  const report = body.report
  const verdict = el('span', 'status', report.passed ? 'passed' : 'failed')
  verdict.dataset.status = report.passed ? 'completed' : 'failed'
  root.append(el('p', '', `${report.name} · ${report.totals.passed}/${report.totals.cases} passed `), verdict)
  for (const problem of report.problems ?? []) root.append(el('p', 'problem', problem))
  const cases = el('ol', 'cases')
  for (const c of report.cases ?? []) {
    const li = el('li', 'case')
    li.dataset.caseId = c.id
    const scores = Object.entries(c.scores ?? {})
      .map(([name, s]) => `${name} ${typeof s === 'object' && s ? s.score : s}`)
      .join(', ')
    li.append(el('strong', '', c.id), ` · ${c.status} · ${scores}`)
    if (c.tree) li.append(treeOf(eventsOfNode(c.tree)))
    cases.append(li)
  }
  root.append(cases)
}
