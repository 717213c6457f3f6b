import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { scratchDir } from '../support/scratch-dir.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const example = readFileSync(join(root, 'docs/mcp.md'), 'utf8').match(
  /```ts\n(\/\/ runnable: bearer\n[\s\S]*?)```/,
)?.[1]

describe('docs/mcp.md, Security', () => {
  afterEach(() => vi.restoreAllMocks())

  it('the bearer-token example serves over HTTP, lets its own client in and prints the sum', async () => {
    expect(example).toBeDefined()
    // Under the repository, so the example's bare imports resolve like an application's.
    const dir = join(root, 'node_modules', '.cache')
    mkdirSync(dir, { recursive: true })
    const file = join(scratchDir('mcp-guide-', dir), 'bearer.ts')
    writeFileSync(file, example!)
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')))
    await import(file)
    expect(printed).toEqual(['[{"type":"text","text":"5"}]'])
  })
})
