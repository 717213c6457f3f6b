import { openai } from '@nestor/providers'
import { createNestorRunnerWith } from './nestor-loop.js'
import { jsonStyle } from './nestor-json.js'
import type { Runner, Target } from './types.js'

// A cold-regime diagnostic: the nestor-json row with openai() imported from the @nestor/providers
// root, which loads every adapter's modules (no SDK). Against nestor-json it prices the root.

export const createNestorJsonRootRunner = (target: Target): Runner =>
  createNestorRunnerWith(target, { ...jsonStyle, name: 'nestor-json-root' }, undefined, openai)
