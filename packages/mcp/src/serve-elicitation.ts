import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  PrimitiveSchemaDefinitionSchema,
  type ElicitRequestFormParams,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import { NestorError, type AskHandler, type InputRequest } from '@nestor/core'
import { NO_SDK_TIMEOUT } from './sdk-timeout.js'

type RequestedSchema = ElicitRequestFormParams['requestedSchema']

/** Top-level keywords a flat object schema may carry; anything else (anyOf, $defs…) is outside the subset. */
const OBJECT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  '$schema',
  'additionalProperties',
  'title',
  'description',
])

/**
 * The `ask` handler of one served call: `ctx.ask` becomes an `elicitation/create` request on the
 * call's own stream, so the client's user answers it. A client without form elicitation, or a
 * decline or cancel, rejects `ctx.ask` with `input_unavailable`; the body sees it like any other.
 */
export function elicitingAsk(server: Server, requestId: RequestId): AskHandler {
  return async (request: InputRequest) => {
    const capability = server.getClientCapabilities()?.elicitation
    // A client that declares only URL elicitation cannot show a form.
    if (!capability || (capability.url !== undefined && capability.form === undefined))
      throw new NestorError(
        'input_unavailable',
        `the MCP client cannot answer "${request.question}": it did not declare the elicitation capability`,
      )
    const result = await server.elicitInput(
      { mode: 'form', message: request.question, requestedSchema: elicitationSchema(request) },
      // A person may take longer than the SDK's 60 s default: the call's own timeout and abort end the wait.
      { relatedRequestId: requestId, timeout: NO_SDK_TIMEOUT, ...(request.signal && { signal: request.signal }) },
    )
    if (result.action === 'accept') return result.content ?? {}
    throw new NestorError(
      'input_unavailable',
      `the MCP client's user ${result.action === 'decline' ? 'declined' : 'cancelled'} "${request.question}"`,
    )
  }
}

/**
 * The question's schema as MCP elicitation takes it: a flat object whose properties are strings,
 * numbers, booleans or enums. The answer is checked against the full schema afterwards, so a
 * keyword elicitation does not carry (a pattern) still holds.
 */
export function elicitationSchema(request: Pick<InputRequest, 'question' | 'schema'>): RequestedSchema {
  const schema = request.schema as { type?: unknown; properties?: unknown; required?: unknown }
  const outside = (why: string) =>
    new NestorError(
      'invalid_options',
      `ctx.ask("${request.question}") cannot be asked over MCP: ${why}; elicitation takes a flat object of string, number, boolean and enum properties`,
    )
  if (schema.type !== 'object' || typeof schema.properties !== 'object' || schema.properties === null)
    throw outside('its schema is not an object with properties')
  const extra = Object.keys(schema).filter((k) => !OBJECT_KEYWORDS.has(k))
  if (extra.length > 0) throw outside(`its schema uses ${extra.join(', ')}`)
  const properties: RequestedSchema['properties'] = {}
  for (const [name, property] of Object.entries(schema.properties)) {
    const parsed = PrimitiveSchemaDefinitionSchema.safeParse(property)
    if (!parsed.success) throw outside(`property ${name} is not a primitive or an enum`)
    properties[name] = parsed.data
  }
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []
  return { type: 'object', properties, ...(required.length > 0 && { required }) }
}
