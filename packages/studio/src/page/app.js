// The studio page: the runs of the app (live), recorded runs and eval reports in a side list; one
// of them open in the main view. Plain modules, no build step. `window.__studio` is what a test
// (or a curious reader) can check: the open view's state.
import { runView } from './run-view.js'
import { recordedView, reportView } from './recorded.js'

const { el } = window.NestorExecTree

const $ = (id) => document.getElementById(id)
const studio = { overview: undefined, view: undefined, fork: undefined }
window.__studio = studio
let stops = []

function stopAll() {
  for (const stop of stops) stop()
  stops = []
  studio.view = studio.fork = undefined
}

function item(text, data, onclick) {
  const li = el('li', 'item')
  const button = el('button', 'link', text)
  button.type = 'button'
  button.onclick = onclick
  li.append(button)
  Object.assign(li.dataset, data)
  return li
}

// The lists are drawn again only when they changed (the page asks every few seconds).
let drawn = ''

async function refresh() {
  const response = await fetch('api/overview')
  if (!response.ok) return void ($('notice').textContent = `the studio answered ${response.status}`)
  const text = await response.text()
  const overview = JSON.parse(text)
  studio.overview = overview
  if (text === drawn) return
  drawn = text
  $('mode').textContent = overview.live ? 'live: this app’s runs' : 'recorded runs'
  $('live-section').hidden = !overview.live
  $('live-runs').replaceChildren(
    ...overview.runs.map((run) =>
      item(
        `${run.live ? '● ' : ''}${run.forkOf ? `fork of ${run.forkOf}: ` : ''}${run.input || run.execId}`,
        { execId: run.execId, live: String(run.live) },
        () => openRun(run),
      ),
    ),
  )
  $('recorded-runs').replaceChildren(
    ...overview.recorded.map((run) =>
      run.problem
        ? Object.assign(el('li', 'item problem', `${run.source} ${run.problem}`), { title: run.source })
        : item(run.runId, { runId: run.runId }, () => void openRecorded(run.runId)),
    ),
  )
  $('reports').replaceChildren(
    ...overview.reports.map((r) =>
      item(r.path.split('/').pop(), { index: String(r.index) }, () => openReport(r.index)),
    ),
  )
}

function openRun(run) {
  stopAll()
  history.replaceState(null, '', `#live/${encodeURIComponent(run.execId)}`)
  const view = runView($('view'), run.execId, {
    title: run.input || 'run',
    // Whether the app has a gate is in the overview: a linked run may draw its cards before it came.
    canApprove: async () => (studio.overview ?? (await listing))?.approvals === true,
    onEnd: () => void refresh(),
  })
  studio.view = view.state
  stops.push(view.stop)
}

async function openRecorded(runId) {
  stopAll()
  history.replaceState(null, '', `#recorded/${encodeURIComponent(runId)}`)
  // Whether forks are possible is in the overview: a linked run may open before it came.
  const overview = studio.overview ?? (await listing)
  void recordedView($('view'), runId, overview, (fork) => {
    studio.fork = fork.state
    stops.push(fork.stop)
    void refresh()
  })
}

function openReport(index) {
  stopAll()
  void reportView($('view'), index)
}

// A link to a run (`#live/{execId}`, `#recorded/{runId}`) opens it at once.
function openLinked() {
  const [kind, id] = location.hash.slice(1).split('/').map(decodeURIComponent)
  if (!id) return
  if (kind === 'live') openRun(studio.overview?.runs.find((r) => r.execId === id) ?? { execId: id, input: '' })
  if (kind === 'recorded') void openRecorded(id)
}

$('refresh').onclick = () => void refresh()
// The linked run streams while the lists load: neither waits for the other.
const listing = refresh().then(() => ((studio.listedAt = performance.now()), studio.overview))
openLinked()
await listing
// Live runs start while the page is open: the list follows them.
// Only while the page is seen: a tab left in the background asks nothing.
if (studio.overview?.live)
  setInterval(() => {
    if (document.visibilityState === 'visible') void refresh()
  }, 2000)
