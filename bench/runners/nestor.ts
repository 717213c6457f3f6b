import { defineTool, type Runtime, type Tool } from '@nestor/core'
import { z } from 'zod'
import { ECHO_DESCRIPTION, SPAWN_DESCRIPTION } from '../scenario.js'
import { createNestorRunnerWith, type ToolStyle } from './nestor-loop.js'
import type { Runner, Target } from './types.js'

// The `nestor` row: tools from defineTool with zod schemas, the way most Nestor apps write them.

const zodStyle: ToolStyle = {
  name: 'nestor',
  tools: (bodies) => ({
    echo: defineTool({
      name: 'echo',
      description: ECHO_DESCRIPTION,
      parameters: z.object({ text: z.string(), pad: z.string() }),
      execute: bodies.echo,
    }) as unknown as Tool,
    spawn: defineTool({
      name: 'spawn',
      description: SPAWN_DESCRIPTION,
      parameters: z.object({ depth: z.number().int() }),
      execute: bodies.spawn,
    }) as unknown as Tool,
  }),
}

/** `configure` sees the runtime before any run (the traced variant instruments it there). */
export const createNestorRunner = (target: Target, configure?: (runtime: Runtime) => void): Runner =>
  createNestorRunnerWith(target, zodStyle, configure)
