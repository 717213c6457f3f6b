import * as incubating from '@opentelemetry/semantic-conventions/incubating'
import * as stable from '@opentelemetry/semantic-conventions'
import { describe, expect, it } from 'vitest'
import * as ours from '../../packages/otel/src/conventions.js'

// The GenAI names are incubating: @nestor/otel copies them, as OpenTelemetry recommends, and this
// test ties each copy to the published package so a rename is caught here.
describe('otel: attribute names', () => {
  it('copies every gen_ai name and value exactly as @opentelemetry/semantic-conventions/incubating spells it', () => {
    const copied = Object.entries(ours).filter(([name]) => name.includes('GEN_AI'))
    expect(copied.length).toBeGreaterThan(15)
    for (const [name, value] of copied)
      expect([name, (incubating as Record<string, unknown>)[name]]).toEqual([name, value])
  })

  it('uses the stable error.type name', () => {
    expect(ours.ATTR_ERROR_TYPE).toBe(stable.ATTR_ERROR_TYPE)
  })

  it('maps Nestor’s gemini provider onto the convention’s gcp.gemini value', () => {
    expect(ours.PROVIDER_NAMES['gemini']).toBe(incubating.GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI)
  })
})
