import { describe, expect, it } from 'vitest'
import { anthropic, modelInfo } from '@nestor/providers'

describe('anthropic capabilities', () => {
  const provider = anthropic({ apiKey: 'sk-ant-test', baseURL: 'http://127.0.0.1:9' })
  const caps = (model: string) => provider.capabilities!(model)

  it('reports thinking for Claude 3.7 and every family from 4 on', async () => {
    for (const model of [
      'claude-3-7-sonnet-20250219',
      'claude-sonnet-4-6',
      'claude-opus-4-1-20250805',
      'claude-haiku-4-5',
      'claude-opus-5',
      'claude-sonnet-5-5',
    ]) {
      expect(await caps(model), model).toMatchObject({ tools: true, thinking: true })
    }
  })

  it('reports no thinking for older models', async () => {
    for (const model of [
      'claude-3-5-sonnet-20241022',
      'claude-3-opus-20240229',
      'claude-3-5-haiku-latest',
      'claude-instant-1',
    ]) {
      expect(await caps(model), model).toMatchObject({ tools: true, thinking: false })
    }
  })

  it("takes each model's context window from the catalogue (one source), the family's 200k where it has none", async () => {
    expect((await caps('claude-3-5-sonnet-20241022')).contextWindow).toBe(200_000)
    expect((await caps('claude-sonnet-4-6')).contextWindow).toBe(
      (await modelInfo('anthropic', 'claude-sonnet-4-6')).contextWindow,
    )
    expect((await caps('claude-sonnet-4-6')).contextWindow).toBeGreaterThan(200_000)
    expect((await caps('claude-instant-1')).contextWindow).toBe(200_000)
  })

  it('answers without any request (the port above refuses connections)', async () => {
    await expect(caps('claude-sonnet-4-6')).resolves.toMatchObject({ tools: true })
  })
})
