import { expect, it } from 'vitest'
import { Runtime, type ExecOptions } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { thrown } from '../support/thrown.js'

it('duplicateCalls (or any Runtime-only option) on exec says it is a Runtime option, before any request', () => {
  const provider = scripted(['never'])
  const runtime = new Runtime({ provider, model: 'm' })
  for (const key of ['duplicateCalls', 'breakerThreshold', 'toolExecution']) {
    const error = thrown(() => runtime.exec('go', { [key]: 'allow' } as ExecOptions))
    expect(error.code).toBe('invalid_options')
    expect(error.message).toBe(
      `unknown option ${key}: it is a Runtime option, not an exec option: new Runtime({ ${key} }) applies it to every exec of that runtime`,
    )
  }
  // A misspelt exec option still gets the nearest name.
  expect(thrown(() => runtime.exec('go', { maxToolCall: 1 } as ExecOptions)).message).toMatch(
    /did you mean maxToolCalls\?/,
  )
  expect(provider.requests).toHaveLength(0)
})
