// @nestor/studio from the packed tarball: studio(runtime) serves its page (read from the shipped
// src/page, and the exec tree from @nestor/web's src/browser) on 127.0.0.1 behind its token, lists the run and streams it; no token is 404; the
// nestor-studio bin answers --help.
import { execFileSync } from 'node:child_process'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers/testing'
import { studio } from '@nestor/studio'

const runtime = new Runtime({ provider: scripted(['Hello from the studio.']), model: 'test' })
const served = await studio(runtime, { port: 0 })
try {
  const run = runtime.exec('hi')
  await run
  const page = await fetch(served.url)
  const script = await fetch(`${served.url}exec-tree.js`)
  const overview = await (await fetch(`${served.url}api/overview`)).json()
  const events = await (await fetch(`${served.url}api/runs/${run.execId}/events`)).text()
  const noToken = await fetch(new URL('/api/overview', served.url))
  const help = execFileSync(process.execPath, ['node_modules/@nestor/studio/bundle/bin.js', '--help'], {
    encoding: 'utf8',
  })
  console.log(
    JSON.stringify({
      page: [page.status, (await page.text()).includes('<title>Nestor Studio</title>')],
      script: [script.status, script.headers.get('content-type')],
      runs: overview.runs.map((r) => r.execId === run.execId),
      ended: events.includes('event: end'),
      noToken: noToken.status,
      help: help.startsWith('usage: nestor-studio'),
    }),
  )
} finally {
  await served.close()
}
