import type { ModelRequest } from '@nestor/core/integration-kit'

/**
 * Typed output for a request whose API cannot carry the schema natively: the schema goes into the
 * system prompt instead and `output` is dropped from the request. The loop validates the answer
 * either way, so a model that strays gets the issues back.
 */
export function withOutputInstructions(request: ModelRequest): ModelRequest {
  if (!request.output) return request
  const { output, ...rest } = request
  const rule =
    'When you give your final answer (not a tool call), answer with only a JSON value, no prose and no code fence, ' +
    `that matches this JSON Schema:\n${JSON.stringify(output.schema)}`
  return { ...rest, system: request.system ? `${request.system}\n\n${rule}` : rule }
}
