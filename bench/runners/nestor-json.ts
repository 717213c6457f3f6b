import type { Tool } from '@nestor/core'
import { ECHO_DESCRIPTION, SPAWN_DESCRIPTION } from '../scenario.js'
import { createNestorRunnerWith, type ToolStyle } from './nestor-loop.js'
import type { Runner, Target } from './types.js'

// The `nestor-json` row: the other common way of writing tools, plain `{ spec, execute }` objects
// with a raw JSON Schema (as every MCP tool is), on a runtime with `duplicateCalls: 'allow'`. This
// module imports no zod, so a cold process of this row loads only what such an app loads.

const ECHO_JSON = {
  type: 'object',
  properties: { text: { type: 'string' }, pad: { type: 'string' } },
  required: ['text', 'pad'],
  additionalProperties: false,
}
const SPAWN_JSON = {
  type: 'object',
  properties: { depth: { type: 'integer' } },
  required: ['depth'],
  additionalProperties: false,
}

export const jsonStyle: ToolStyle = {
  name: 'nestor-json',
  runtime: { duplicateCalls: 'allow' },
  tools: (bodies) => ({
    echo: {
      spec: { name: 'echo', description: ECHO_DESCRIPTION, parameters: ECHO_JSON },
      execute: (args: Record<string, unknown>) => bodies.echo(args as { text: string }),
    } as Tool,
    spawn: {
      spec: { name: 'spawn', description: SPAWN_DESCRIPTION, parameters: SPAWN_JSON },
      execute: (args: Record<string, unknown>) => bodies.spawn(args as { depth: number }),
    } as Tool,
  }),
}

export const createNestorJsonRunner = (target: Target): Runner => createNestorRunnerWith(target, jsonStyle)
