import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const Schema = z.object({
  n: z.number(),
  s: z.string(),
  list: z.array(z.number()),
  flag: z.boolean(),
  nested: z.object({ k: z.string() }),
})
const text = '{"n": 12345, "s": "a\\"b\\u00e9c", "list": [10, 200, 3000], "flag": true, "nested": {"k": "v"}}'

async function partialsOf(chunkSize: number) {
  const runtime = new Runtime({ provider: scripted([text], { chunkSize }), model: 'm' })
  const run = runtime.exec('go', { output: Schema })
  const partials: unknown[] = []
  let deltas = 0
  for await (const event of run) {
    if (event.type === 'partial_output') partials.push(event.partial)
    if (event.type === 'message_delta') deltas++
  }
  return { partials, deltas, result: await run }
}

describe('partial_output', () => {
  it('ends with the validated output and emits at most one partial per text delta', async () => {
    const { partials, deltas, result } = await partialsOf(1)
    expect(result.output).toEqual(JSON.parse(text))
    expect(partials.at(-1)).toEqual(result.output)
    expect(partials.length).toBeLessThanOrEqual(deltas)
  })

  it('never shows an unfinished number, literal or key', async () => {
    const { partials } = await partialsOf(1)
    for (const partial of partials as Record<string, unknown>[]) {
      if ('n' in partial) expect(partial.n).toBe(12345)
      if ('flag' in partial) expect(partial.flag).toBe(true)
      for (const key of Object.keys(partial)) expect(['n', 's', 'list', 'flag', 'nested']).toContain(key)
      if (Array.isArray(partial.list)) for (const [i, v] of partial.list.entries()) expect(v).toBe([10, 200, 3000][i])
    }
  })

  it('shows a string value as far as it streamed, with escapes resolved', async () => {
    const { partials } = await partialsOf(3)
    const strings = (partials as { s?: string }[]).map((p) => p.s).filter((s): s is string => s !== undefined)
    expect(strings.length).toBeGreaterThan(1)
    for (const s of strings) expect('a"béc'.startsWith(s)).toBe(true)
  })

  it('is the same final value at any chunking', async () => {
    for (const size of [1, 2, 5, 13, 200]) {
      const { partials, result } = await partialsOf(size)
      expect(partials.at(-1)).toEqual(result.output)
    }
  })

  it('is not emitted for execs without output', async () => {
    const runtime = new Runtime({ provider: scripted([text]), model: 'm' })
    const run = runtime.exec('go')
    const types = new Set<string>()
    for await (const event of run) types.add(event.type)
    expect(types.has('partial_output')).toBe(false)
    expect((await run).output).toBeUndefined()
  })
})
