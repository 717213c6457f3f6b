import { Runtime, type ExecResult } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, expectTypeOf, it } from 'vitest'

const runtime = () => new Runtime({ provider: scripted(['hello']), model: 'm' })

describe('ExecRun as a Promise', () => {
  it('is an instance of Promise whose then, catch and finally give plain promises of the result', async () => {
    const run = runtime().exec('hi')
    expect(run).toBeInstanceOf(Promise)
    expect(Object.prototype.toString.call(run)).toBe('[object Promise]')
    let finallyRan = false
    const caught = run.catch(() => 'unreachable')
    const finished = run.finally(() => void (finallyRan = true))
    expect(caught).not.toBe(run)
    expect(caught.constructor).toBe(Promise)
    expectTypeOf(caught).toEqualTypeOf<Promise<ExecResult<undefined> | string>>()
    expectTypeOf(finished).toEqualTypeOf<Promise<ExecResult<undefined>>>()
    const [viaCatch, viaFinally, viaThen] = await Promise.all([caught, finished, run.then((r) => r.text)])
    expect(viaCatch).toMatchObject({ status: 'completed', text: 'hello' })
    expect(viaFinally).toBe(viaCatch)
    expect(viaThen).toBe('hello')
    expect(finallyRan).toBe(true)
    expect(await run.result).toBe(viaCatch)
  })

  it('still iterates every event after being awaited, and Promise.race and resolve accept it', async () => {
    const run = runtime().exec('hi')
    const raced = await Promise.race([run, new Promise<never>(() => {})])
    expect(raced.text).toBe('hello')
    expect(await Promise.resolve(run)).toBe(raced)
    const types: string[] = []
    for await (const event of run) types.push(event.type)
    expect(types[0]).toBe('agent_start')
    expect(types.at(-1)).toBe('agent_end')
  })

  it('a failed exec resolves with its failure: catch is never called', async () => {
    const run = new Runtime({ provider: scripted([]), model: 'm' }).exec('hi')
    const outcome = await run.catch(() => 'rejected')
    expect(outcome).toMatchObject({ status: 'failed' })
  })
})
