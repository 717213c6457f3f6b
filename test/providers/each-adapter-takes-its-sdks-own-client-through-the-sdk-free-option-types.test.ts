import type { LanguageModelV3 } from '@ai-sdk/provider'
import Anthropic from '@anthropic-ai/sdk'
import { type BedrockRuntimeClient, type BedrockRuntimeClientConfig } from '@aws-sdk/client-bedrock-runtime'
import { type GoogleGenerativeAI } from '@google/generative-ai'
import { Runtime } from '@nestor/core'
import { type aiSdk, anthropic, type bedrock, type gemini, openai, type OpenAIRequestOptions } from '@nestor/providers'
import OpenAI from 'openai'
import type { ReasoningEffort } from 'openai/resources/shared'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { scenario } from '../support/anthropic-wire.js'
import { text, useOpenAIWire } from '../support/openai-loop-wire.js'

// The option types are written out structurally so the root entry's declarations need no SDK
// (docs/packaging.md); these checks keep each SDK's own types fitting them.
describe('the SDK-free option types of the adapters', () => {
  it('accept each SDK’s own client, credentials and model types, and the openai reasoning efforts exactly', () => {
    expectTypeOf<OpenAI>().toExtend<NonNullable<Parameters<typeof openai>[0]>['client']>()
    expectTypeOf<Anthropic>().toExtend<NonNullable<Parameters<typeof anthropic>[0]>['client']>()
    expectTypeOf<GoogleGenerativeAI>().toExtend<NonNullable<Parameters<typeof gemini>[0]>['client']>()
    expectTypeOf<BedrockRuntimeClient>().toExtend<NonNullable<Parameters<typeof bedrock>[0]>['client']>()
    expectTypeOf<NonNullable<BedrockRuntimeClientConfig['credentials']>>().toExtend<
      NonNullable<NonNullable<Parameters<typeof bedrock>[0]>['credentials']>
    >()
    expectTypeOf<LanguageModelV3>().toExtend<Parameters<typeof aiSdk>[0]>()
    expectTypeOf<NonNullable<OpenAIRequestOptions['reasoningEffort']>>().toEqualTypeOf<NonNullable<ReasoningEffort>>()
    // Not anything: an object that is no client does not type-check.
    expectTypeOf<{ apiKey: string }>().not.toExtend<NonNullable<Parameters<typeof openai>[0]>['client']>()
  })

  const wire = useOpenAIWire()
  it('an injected openai and anthropic client are the ones that send the requests', async () => {
    wire.server.enqueue({ body: text('from the injected client') })
    const client = new OpenAI({ apiKey: 'sk-injected', baseURL: `${wire.server.url}/v1`, maxRetries: 0 })
    const viaOpenAI = await new Runtime({ provider: openai({ client }), model: 'gpt-4o-mini' }).exec('hi')
    expect(viaOpenAI.text).toBe('from the injected client')
    expect(wire.server.requests[0]?.headers.authorization).toBe('Bearer sk-injected')

    wire.server.enqueue({ body: scenario('text.sse') })
    const claude = new Anthropic({ apiKey: 'sk-ant-injected', baseURL: wire.server.url, maxRetries: 0 })
    const viaAnthropic = await new Runtime({ provider: anthropic({ client: claude }), model: 'claude-x' }).exec('hi')
    expect(viaAnthropic.status).toBe('completed')
    expect(wire.server.requests.map((r) => [r.url, r.headers['x-api-key'] ?? r.headers.authorization])).toEqual([
      ['/v1/chat/completions', 'Bearer sk-injected'],
      ['/v1/messages', 'Bearer sk-ant-injected'],
    ])
  })
})
