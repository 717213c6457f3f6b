import { liveTestsEnabled, runToolLoopConformance } from '@nestor/agents/conformance'
import { openaiCompatible } from '@nestor/providers'
import { describe, expect, it } from 'vitest'

// Live only: NESTOR_LIVE_TESTS=1 and OLLAMA_MODEL (e.g. qwen3:4b) with a running Ollama
// (OLLAMA_BASE_URL, default http://localhost:11434/v1). Skipped otherwise, like every live test.
const model = process.env.OLLAMA_MODEL
const live = liveTestsEnabled() && Boolean(model)

describe.skipIf(!live)('live: a local Ollama model through openaiCompatible', () => {
  for (const toolProtocol of ['auto', 'text'] as const) {
    it(`completes the conformance run with toolProtocol '${toolProtocol}' (a verdict, not a crash)`, async () => {
      const provider = openaiCompatible({
        baseURL: process.env.OLLAMA_BASE_URL ?? 'http://localhost:11434/v1',
        toolProtocol,
      })
      const outcome = await runToolLoopConformance({ provider, model: model as string })
      expect(outcome.error).toBeUndefined()
      expect(outcome.turns).toBeGreaterThan(0)
    }, 180_000)
  }
})
