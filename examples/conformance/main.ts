// The tool-loop conformance CLI. Offline by default (the committed cassette), so CI can run it:
//   pnpm conformance                                         replay test/fixtures/cassettes/conformance
//   pnpm conformance -- --provider scripted                  the scripted conforming model, no cassette
//   NESTOR_LIVE_TESTS=1 pnpm conformance -- --provider openai --model gpt-4.1-mini
//   ... --record DIR                                         also record the live run into DIR
//   pnpm conformance -- --record-cassette                    re-record the committed cassette
//   --json                                                   print the outcome as JSON
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Provider } from '@nestor/core'
import { runToolLoopConformance, type ConformanceOutcome } from '@nestor/agents/conformance'
import { replay } from '@nestor/providers'
import { liveProvider, parseArgs, repoRoot } from '../demo/live-provider.js'
import { conformingModel } from './conforming-model.js'

export const CASSETTE_MODEL = 'scripted-conformance'
export const cassetteDir = (): string => join(repoRoot(), 'test', 'fixtures', 'cassettes', 'conformance')

export async function main(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const args = parseArgs(argv)
  const name = typeof args.get('provider') === 'string' ? (args.get('provider') as string) : 'replay'
  const model = typeof args.get('model') === 'string' ? (args.get('model') as string) : undefined
  let target: { provider: Provider; model: string }
  if (args.has('record-cassette')) {
    target = {
      provider: replay({ provider: conformingModel(), dir: cassetteDir(), mode: 'record' }),
      model: CASSETTE_MODEL,
    }
  } else if (name === 'replay') {
    target = { provider: replay({ dir: cassetteDir(), mode: 'strict' }), model: model ?? CASSETTE_MODEL }
  } else if (name === 'scripted') {
    target = { provider: conformingModel(), model: model ?? CASSETTE_MODEL }
  } else {
    const live = liveProvider(name, model)
    if (typeof live === 'string') {
      out(`conformance: ${live}`)
      return 2
    }
    const record = args.get('record')
    target =
      typeof record === 'string'
        ? { provider: replay({ provider: live.provider, dir: record, mode: 'record' }), model: live.model }
        : live
  }
  let outcome: ConformanceOutcome
  try {
    outcome = await runToolLoopConformance(target)
  } catch (error) {
    out(`conformance: ${(error as Error).message}`)
    return 2
  }
  if (args.has('json')) out(JSON.stringify(outcome, null, 2))
  else report(outcome, out)
  return outcome.passed ? 0 : 1
}

function report(o: ConformanceOutcome, out: (line: string) => void): void {
  out(`tool-loop conformance — provider ${o.provider}, model ${o.model}`)
  for (const call of o.observations) {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)
    out(`  turn ${call.turn}: ${call.name} ${args.length > 120 ? `${args.slice(0, 117)}...` : args}`)
  }
  for (const v of o.violations) out(`  ✗ ${v.class} (turn ${v.turn}): ${v.detail}`)
  if (o.error) out(`  error: ${o.error}`)
  if (o.finalAnswer) out(`  answer: ${o.finalAnswer}`)
  out(
    o.passed ? `PASS in ${o.turns} turns` : `FAIL${o.failureClass ? ` ${o.failureClass}` : ''} after ${o.turns} turns`,
  )
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code
  })
}
