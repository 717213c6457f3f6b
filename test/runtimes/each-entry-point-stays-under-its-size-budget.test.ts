import { describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/built.js'
// @ts-expect-error: a plain .mjs script with no types (node scripts/sizes.mjs prints the same table)
import { browserEntryPoints, budgets, entryPoints, gzippedSize } from '../../scripts/sizes.mjs'

// What an app ships for each entry point, minified and gzipped (for Node, and for a page where one
// can import it), is held under a budget written in scripts/size-budgets.json (a size is deterministic: the same sources give the same bytes).

type Sizes = {
  entryPoints(): string[]
  browserEntryPoints(): string[]
  gzippedSize(specifier: string): Promise<number>
  budgets(): Record<string, number>
}
const sizes = { browserEntryPoints, budgets, entryPoints, gzippedSize } as Sizes

describe('entry point sizes', () => {
  it(
    'every entry point, minified and gzipped with what it imports, is under its budget',
    { timeout: 120_000 },
    async () => {
      ensureBuilt()
      const limits = sizes.budgets()
      const rows: string[] = []
      const over: string[] = []
      for (const entry of [...sizes.entryPoints(), ...sizes.browserEntryPoints()]) {
        const kib = (await sizes.gzippedSize(entry)) / 1024
        const budget = limits[entry]
        rows.push(`${entry}: ${kib.toFixed(1)} KiB (budget ${budget ?? 'none'})`)
        if (budget === undefined || kib > budget)
          over.push(`${entry}: ${kib.toFixed(1)} KiB > ${budget ?? 'no budget'}`)
      }
      console.log(`min+gzip sizes:\n${rows.join('\n')}`)
      expect(over).toEqual([])
    },
  )
})
