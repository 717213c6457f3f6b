// The second process of the approval round trip: reads { state, decisions } on stdin, resumes on
// a fresh Runtime, prints its log lines and then one JSON summary line.
import { scripted } from '@nestor/providers'
import type { ResumeDecisions, RunState } from '@nestor/core'
import { deployTool, runtimeWith } from './shared.js'

let input = ''
for await (const chunk of process.stdin) input += String(chunk)
const { state, decisions } = JSON.parse(input) as { state: string; decisions: ResumeDecisions }

// This process's model only has to answer after the tool results.
const runtime = runtimeWith(scripted(['The api is live on staging and production.']))
const run = runtime.resume(JSON.parse(state) as RunState, decisions, { tools: [deployTool(console.log)] })
const result = await run
console.log(
  JSON.stringify({
    status: result.status,
    text: result.text,
    iterationsUsed: result.iterationsUsed,
    receipts: result.receipts.map((r) => r.status),
  }),
)
