import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { NestorError, Runtime, suppliedResults, type SuppliedToolSpec } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'

const lookup: SuppliedToolSpec = { name: 'lookup', description: 'Look up', parameters: z.object({ q: z.string() }) }

function refusal(build: () => unknown): string {
  try {
    build()
  } catch (error) {
    expect(NestorError.isInstance(error) && error.code).toBe('invalid_options')
    return (error as Error).message
  }
  throw new Error('expected invalid_options')
}

describe('suppliedResults refuses bad input with invalid_options naming the key', () => {
  it('a spec without a name', () => {
    expect(refusal(() => suppliedResults({}, [{ description: 'x' } as unknown as SuppliedToolSpec]))).toContain(
      'specs[0].name',
    )
  })

  it('two specs with one name', () => {
    expect(refusal(() => suppliedResults({}, [lookup, lookup]))).toMatch(
      /specs\[1\]\.name: duplicate tool name "lookup"/,
    )
  })

  it('a supplied result that is not a string', () => {
    const message = refusal(() => suppliedResults({ lookup: { rows: 1 } as unknown as string }, [lookup]))
    expect(message).toContain('suppliedResults.lookup')
    expect(message).toContain('expected a string')
  })

  it('a supplied result no spec names (the model could never reach it)', () => {
    expect(refusal(() => suppliedResults({ lookpu: 'x' }, [lookup]))).toContain(
      'suppliedResults.lookpu: no spec is named lookpu (specs: lookup)',
    )
  })

  it('results that are not an object, specs that are not an array', () => {
    expect(refusal(() => suppliedResults(null as unknown as Record<string, string>, [lookup]))).toContain(
      'invalid option suppliedResults',
    )
    expect(refusal(() => suppliedResults({}, lookup as unknown as SuppliedToolSpec[]))).toContain(
      'invalid option specs',
    )
  })

  it('a supplied tool is returned as is and its arguments are checked like any tool', async () => {
    const provider = scripted([
      calls({ name: 'lookup', args: { q: 7 } }),
      calls({ name: 'lookup', args: { q: 'a' } }),
      'ok',
    ])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', {
      tools: suppliedResults({ lookup: 'row 1' }, [lookup]),
    })
    expect(result.status).toBe('completed')
    expect(result.receipts.map((r) => r.status)).toEqual(['invalid_arguments', 'ok'])
    const answer = result.history.filter((m) => m.role === 'toolResult').at(-1)
    expect(answer?.content).toEqual([{ type: 'text', text: 'row 1' }])
  })
})
