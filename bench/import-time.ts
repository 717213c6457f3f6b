import { fileURLToPath } from 'node:url'
import { runNodeJson } from './processes.js'
import { fmt, median, quantile } from './stats.js'

// Import time, as a CLI or a serverless cold start pays it: each sample is a fresh Node process
// that imports a system's modules and runs nothing. Systems are interleaved round by round so
// drift of a shared machine hits all alike; results are ratios to importing the `openai` SDK alone,
// measured in the same run.

export type ImportTarget = { name: string; modules: string[]; note: string }

export const IMPORT_TARGETS: ImportTarget[] = [
  { name: 'openai SDK alone', modules: ['openai'], note: 'the baseline' },
  {
    name: 'nestor (core + openai adapter)',
    modules: ['@nestor/core', '@nestor/providers/openai'],
    note: 'the adapter loads the SDK at its first call',
  },
  {
    name: 'nestor + the openai SDK',
    modules: ['@nestor/core', '@nestor/providers/openai', 'openai'],
    note: 'what the first openai() call adds',
  },
  {
    name: 'nestor (core + providers root)',
    modules: ['@nestor/core', '@nestor/providers'],
    note: 'no SDK is loaded by the root',
  },
  { name: 'ai-sdk', modules: ['ai', '@ai-sdk/openai'], note: 'ai + @ai-sdk/openai' },
  {
    name: 'pi-agent-core',
    modules: ['@mariozechner/pi-agent-core', '@mariozechner/pi-ai'],
    note: 'pi-agent-core + pi-ai',
  },
  { name: '@openai/agents', modules: ['@openai/agents'], note: '' },
]

const ROUNDS = Number(process.env.BENCH_IMPORT_ROUNDS ?? 15)
const child = fileURLToPath(new URL('./import-child.js', import.meta.url))

async function sample(modules: string[]): Promise<number | string> {
  const outcome = await runNodeJson<{ ms: number }>([child, ...modules], 60_000)
  if (outcome.ok) return outcome.value.ms
  return (outcome.stderr.split('\n').find((l) => l.includes('Error')) ?? outcome.error).slice(0, 160)
}

export type ImportResult = { target: ImportTarget; ms: number[]; failed?: string }

export async function runImportTimes(targets = IMPORT_TARGETS, rounds = ROUNDS): Promise<ImportResult[]> {
  const results = targets.map((target): ImportResult => ({ target, ms: [] }))
  for (let round = 0; round < rounds; round++) {
    for (const result of results) {
      if (result.failed) continue
      const ms = await sample(result.target.modules)
      if (typeof ms === 'number') result.ms.push(ms)
      else result.failed = ms
    }
  }
  return results
}

export function renderImportTimes(results: ImportResult[]): string {
  const base = median(results[0]?.ms ?? [])
  const out = ['### Import time in a fresh process (median, × importing the openai SDK alone; lower is better)', '']
  out.push('| system | modules | × openai | median ms | p25–p75 ms | note |', '|---|---|---:|---:|---:|---|')
  for (const { target, ms, failed } of results) {
    if (failed || ms.length === 0) {
      out.push(`| ${target.name} | ${target.modules.join(' + ')} | unavailable | | | ${failed ?? ''} |`)
      continue
    }
    const m = median(ms)
    out.push(
      `| ${target.name} | ${target.modules.join(' + ')} | ${fmt(m / base, 2)}× | ${fmt(m, 1)} | ${fmt(quantile(ms, 0.25), 1)}–${fmt(quantile(ms, 0.75), 1)} | ${target.note} |`,
    )
  }
  const nestor = results.find((r) => r.target.name === 'nestor (core + openai adapter)')
  if (nestor && nestor.ms.length && base) {
    const ratio = median(nestor.ms) / base
    out.push(
      '',
      `Closing note: importing Nestor (core + one adapter) takes ${fmt(ratio, 2)}× importing the openai SDK alone (goal ≤ 1.2×).`,
    )
  }
  out.push('')
  return out.join('\n')
}

// `node bench/dist/import-time.js` runs this part of the bench alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(renderImportTimes(await runImportTimes()))
