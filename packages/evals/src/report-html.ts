import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { EvalReport } from './types.js'

// One page, nothing fetched: the report's JSON sits in a script element and a small script draws
// it. Everything the model wrote is put in with textContent, never as HTML. Each case's exec tree
// is drawn by @nestor/web's exec tree, the studio's: its script and style are inlined as they are.

let component: { script: string; style: string } | undefined
/** @nestor/web's exec tree (src/browser/exec-tree.js and .css), read once. */
function treeComponent(): { script: string; style: string } {
  if (component) return component
  const folder = join(dirname(createRequire(import.meta.url).resolve('@nestor/web/package.json')), 'src/browser')
  const read = (name: string) => readFileSync(join(folder, name), 'utf8')
  return (component = { script: read('exec-tree.js'), style: read('exec-tree.css') })
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 1rem; color: #1d1d1f; }
h1 { font-size: 1.4rem; margin: 0 0 .3rem; } h2 { font-size: 1rem; color: #555; margin: 1.2rem 0 .4rem; }
.badge { padding: .1rem .55rem; border-radius: 1rem; font-size: .85rem; background: #eee; }
.badge[data-ok='true'] { background: #dcfce7; } .badge[data-ok='false'] { background: #fee2e2; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #e5e7eb; vertical-align: top; }
th[data-sort] { cursor: pointer; user-select: none; } th[data-sort]:hover { background: #f1f5f9; }
th[aria-sort='ascending']::after { content: ' ▲'; } th[aria-sort='descending']::after { content: ' ▼'; }
td.score { font-variant-numeric: tabular-nums; }
td.score[data-pass='false'] { color: #b91c1c; font-weight: 600; }
.delta-up { color: #15803d; } .delta-down { color: #b91c1c; font-weight: 600; }
tr.case { cursor: pointer; } tr.case:hover { background: #f8fafc; }
tr.detail > td { background: #fafafa; }
.status { font-size: .8rem; padding: 0 .4rem; border-radius: .6rem; background: #eee; }
.status[data-status='completed'] { background: #dcfce7; } .status[data-status='failed'], .status[data-status='timeout'] { background: #fee2e2; }
.status[data-status^='cassette'] { background: #fef3c7; }
ul.problems { color: #b91c1c; } .reason { color: #64748b; font-size: .85rem; }
.meta { color: #64748b; font-size: .85rem; }
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
pre { white-space: pre-wrap; font-size: .8rem; margin: 0; }
`

const SCRIPT = `
'use strict'
const report = JSON.parse(document.getElementById('report').textContent)
const $ = (id) => document.getElementById(id)
const { el, ExecTree, eventsOfNode } = window.NestorExecTree
const pct = (x) => x === undefined ? '–' : (Math.round(x * 1000) / 10) + '%'
const num = (x) => x === undefined ? '–' : String(Math.round(x * 1000) / 1000)
const names = Object.keys(report.scorers)
const passAt = report.passAt
const base = report.baseline
const baseCase = new Map((base ? base.cases : []).map((c) => [c.id, c]))
function delta(now, before, fmt) {
  const span = el('span', '', fmt(now))
  if (before === undefined || now === undefined || now === before) return span
  const d = el('span', now > before ? 'delta-up' : 'delta-down', ' (' + (now > before ? '+' : '') + fmt(now - before) + ')')
  span.append(d)
  return span
}

// Summary
$('name').textContent = report.name
const badge = $('verdict'); badge.textContent = report.passed ? 'passed' : 'failed'; badge.dataset.ok = String(report.passed)
const t = report.totals
$('totals').textContent = t.cases + ' cases · ' + t.passed + ' passed · ' +
  Object.entries(t.byStatus).map(([k, v]) => v + ' ' + k).join(', ') + ' · ' + t.usage.total + ' tokens' +
  (t.scorerUsage.total ? ' (+ ' + t.scorerUsage.total + ' judge tokens)' : '') + (t.cost !== undefined ? ' · $' + t.cost : '') +
  ' · ' + (report.durationMs / 1000).toFixed(1) + ' s · ' + report.startedAt
for (const p of report.problems) $('problems').append(el('li', '', p))
for (const name of names) {
  const s = report.scorers[name]; const b = base && base.scorers[name]
  const tr = el('tr'); tr.dataset.scorer = name
  tr.append(el('td', '', name))
  const m = el('td', 'score'); m.append(delta(s.mean, b && b.baselineMean, num)); tr.append(m)
  const r = el('td', 'score'); r.append(delta(s.passRate, b && b.baselinePassRate, pct)); tr.append(r)
  const th = report.thresholds.filter((x) => x.scorer === name)
  const c = el('td', 'score', th.map((x) => x.metric + ' ≥ ' + (x.metric === 'mean' ? num(x.min) : pct(x.min))).join(', ') || '–')
  if (th.some((x) => !x.passed)) c.dataset.pass = 'false'
  tr.append(c, el('td', '', s.scored))
  $('scorers').append(tr)
}
if (base) $('baseline').textContent = 'Compared with the baseline "' + base.name + '" of ' + base.startedAt + ': ' +
  base.regressions.length + ' regression(s)' + (base.added.length ? ', new cases: ' + base.added.join(', ') : '') +
  (base.removed.length ? ', removed: ' + base.removed.join(', ') : '')
else $('baseline').textContent = 'No baseline.'

// The exec tree of one case: drawn by the component from the events its recorded tree stands for.
function execTree(node) {
  const root = el('div', 'tree')
  const tree = new ExecTree(root)
  for (const event of eventsOfNode(node)) tree.apply(event)
  return root
}

// The case table: sortable by any column
const columns = [{ key: 'id', label: 'case' }, { key: 'status', label: 'status' }, ...names.map((n) => ({ key: 'score:' + n, label: n })),
  { key: 'tokens', label: 'tokens' }, { key: 'durationMs', label: 'ms' }]
const value = (c, key) => key.startsWith('score:') ? (c.scores[key.slice(6)] ? c.scores[key.slice(6)].score : -1)
  : key === 'tokens' ? c.usage.total : c[key]
let sort = { key: 'id', dir: 1 }
const head = $('case-head')
for (const col of columns) {
  const th = el('th', '', col.label); th.dataset.sort = col.key
  th.addEventListener('click', () => { sort = { key: col.key, dir: sort.key === col.key ? -sort.dir : 1 }; drawCases() })
  head.append(th)
}
function drawCases() {
  for (const th of head.children) th.setAttribute('aria-sort', th.dataset.sort === sort.key ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none')
  const rows = [...report.cases].sort((a, b) => { const x = value(a, sort.key), y = value(b, sort.key); return (x < y ? -1 : x > y ? 1 : 0) * sort.dir })
  const body = $('cases'); body.textContent = ''
  for (const c of rows) {
    const tr = el('tr', 'case'); tr.dataset.caseId = c.id
    tr.append(el('td', '', c.id))
    const st = el('td'); const sp = el('span', 'status', c.status); sp.dataset.status = c.status; st.append(sp); tr.append(st)
    const was = baseCase.get(c.id)
    for (const n of names) {
      const s = c.scores[n]; const td = el('td', 'score')
      if (s) { td.append(delta(s.score, was && was.scores[n] && was.scores[n].baseline, num)); td.dataset.pass = String(s.score >= passAt) } else td.textContent = '–'
      if (s && s.reason) td.title = s.reason
      tr.append(td)
    }
    tr.append(el('td', 'score', c.usage.total), el('td', 'score', c.durationMs))
    const detail = el('tr', 'detail'); detail.hidden = true
    const td = el('td'); td.colSpan = columns.length
    const grid = el('div', 'grid'); const left = el('div'); const right = el('div')
    left.append(el('h2', '', 'input'), el('pre', '', typeof c.input === 'string' ? c.input : JSON.stringify(c.input, null, 2)))
    if (c.expected !== undefined) left.append(el('h2', '', 'expected'), el('pre', '', typeof c.expected === 'string' ? c.expected : JSON.stringify(c.expected, null, 2)))
    left.append(el('h2', '', 'answer'), el('pre', '', c.text || '(no answer)'))
    if (c.error) left.append(el('h2', '', 'error'), el('pre', '', c.error))
    left.append(el('h2', '', 'scores'))
    for (const n of names) if (c.scores[n]) left.append(el('div', 'reason', n + ': ' + num(c.scores[n].score) + (c.scores[n].reason ? ' — ' + c.scores[n].reason : '') +
      (c.spread && c.spread[n] ? ' (trials ' + num(c.spread[n].min) + '–' + num(c.spread[n].max) + ', sd ' + num(c.spread[n].stdev) + ')' : '')))
    right.append(el('h2', '', 'exec tree'))
    if (c.tree) right.append(execTree(c.tree)); else right.append(el('div', 'meta', 'no tree'))
    grid.append(left, right); td.append(grid); detail.append(td)
    tr.addEventListener('click', () => { detail.hidden = !detail.hidden })
    body.append(tr, detail)
  }
}
drawCases()
window.__report = { cases: report.cases.length, sortedBy: () => sort }
`

/** Safe inside a script element: no `</script>` or `<!--` can end it early. */
const embed = (json: string) =>
  json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** One self-contained HTML page: summary, scorers, sortable cases, each case's exec tree, the baseline diff. */
export function toHtmlReport(report: EvalReport): string {
  const tree = treeComponent()
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>${escapeHtml(report.name)} · nestor eval</title>
<style>${STYLE}${tree.style}</style>
</head>
<body>
<header><h1><span id="name"></span> <span id="verdict" class="badge"></span></h1><div id="totals" class="meta"></div></header>
<ul id="problems" class="problems"></ul>
<h2>scorers</h2>
<table><thead><tr><th>scorer</th><th>mean</th><th>pass rate</th><th>threshold</th><th>scored</th></tr></thead><tbody id="scorers"></tbody></table>
<p id="baseline" class="meta"></p>
<h2>cases <span class="meta">(click a column to sort, a row to open its exec tree)</span></h2>
<table><thead><tr id="case-head"></tr></thead><tbody id="cases"></tbody></table>
<script type="application/json" id="report">${embed(JSON.stringify(report))}</script>
<script>${tree.script}</script>
<script>${SCRIPT}</script>
</body>
</html>
`
}

export async function writeHtmlReport(report: EvalReport, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, toHtmlReport(report))
}
