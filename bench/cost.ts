import { fileURLToPath } from 'node:url'
import type { AssistantMessage, Provider, RuntimeOptions } from '@nestor/core'
import { addUsage, emptyUsage } from '@nestor/core/integration-kit'
import { runImportTimes, type ImportResult } from './import-time.js'
import { formatTime, timePerOp } from './time-per-op.js'
import { fmt, median, quantile } from './stats.js'

// What dollars cost (docs/cost.md). Warm: pricing one turn (the loop's own call, after its model
// was looked up) against adding a turn's usage into the totals, which the loop did per turn before
// there were prices: a ratio measured in the same process. Cold: fresh processes importing the
// providers root (which must not load the price dataset), and what the first lookup adds.

// Relative to bench/dist/ when compiled, to bench/ when a test imports the source.
const fromRoot = import.meta.url.includes('/bench/dist/') ? '../../' : '../'
const pricesUrl = new URL(`${fromRoot}packages/core/dist/exec/prices.js`, import.meta.url)
const { priceTurn } = (await import(pricesUrl.href)) as {
  priceTurn: (options: Readonly<RuntimeOptions>, provider: Provider, message: AssistantMessage) => void | Promise<void>
}

export type CostBench = { priceTurnMs: number; addUsageMs: number; imports: ImportResult[] }

export async function runCostBench(importRounds = Number(process.env.BENCH_IMPORT_ROUNDS ?? 9)): Promise<CostBench> {
  const provider: Provider = {
    name: 'bench',
    stream: () => ({ [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true, value: undefined }) }) }),
  }
  const options: RuntimeOptions = {
    provider,
    model: 'm',
    prices: { 'bench:m': { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 3.75 } },
  }
  const message: AssistantMessage = {
    role: 'assistant',
    content: [],
    stopReason: 'stop',
    usage: { input: 1200, output: 340, cacheRead: 800, cacheWrite: 50, total: 2390 },
    provider: 'bench',
    model: 'm',
  }
  // The first turn of a model waits for its lookup; every later one is the synchronous path.
  await priceTurn(options, provider, message)
  const n = 100_000
  const priceTurnMs = await timePerOp(() => {
    for (let i = 0; i < n; i++) void priceTurn(options, provider, message)
  }, n)
  const total = emptyUsage()
  const addUsageMs = await timePerOp(() => {
    for (let i = 0; i < n; i++) addUsage(total, message.usage)
  }, n)
  const imports = await runImportTimes(
    [
      { name: 'openai SDK alone', modules: ['openai'], note: 'the baseline' },
      {
        name: 'nestor (core + providers root)',
        modules: ['@nestor/core', '@nestor/providers'],
        note: 'the catalogue is not loaded',
      },
      {
        name: '… + the price dataset',
        modules: ['@nestor/core', '@nestor/providers', '@pydantic/genai-prices'],
        note: "what a process's first priced turn adds, once",
      },
    ],
    importRounds,
  )
  return { priceTurnMs, addUsageMs, imports }
}

export function renderCostBench({ priceTurnMs, addUsageMs, imports }: CostBench): string {
  const out = ['### Cost: pricing a turn, and what the catalogue adds to a cold start', '']
  out.push(
    '| measure | regime | result | note |',
    '|---|---|---:|---|',
    `| pricing a turn (\`priceTurn\`, model already looked up) | warm, in-process, best of 9 batches of 100k | ${formatTime(priceTurnMs)} (${fmt(priceTurnMs / addUsageMs, 1)}× adding a turn's usage, ${formatTime(addUsageMs)}) | goal ≤ 0.01 ms |`,
  )
  const [base, root, loaded] = imports.map((r) => (r.ms.length ? median(r.ms) : NaN))
  for (const r of imports) {
    const m = r.ms.length ? median(r.ms) : NaN
    out.push(
      `| import ${r.target.modules.join(' + ')} | cold, fresh process, median of ${r.ms.length} | ${fmt(m, 1)} ms (${fmt(m / (base as number), 2)}× the openai SDK; p25–p75 ${fmt(quantile(r.ms, 0.25), 1)}–${fmt(quantile(r.ms, 0.75), 1)}) | ${r.failed ?? r.target.note} |`,
    )
  }
  out.push(
    '',
    `Closing note: importing the providers root loads no price data (a cold start pays nothing for the catalogue); the dataset's lazy load adds ~${fmt((loaded as number) - (root as number), 1)} ms once, at the first priced turn or budget check.`,
    '',
  )
  return out.join('\n')
}

// `node bench/dist/cost.js` (`pnpm bench:cost`) runs this part of the bench alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(renderCostBench(await runCostBench()))
