import { NestorError } from '../contract/errors.js'
import type { ForkEdit } from '../contract/fork-types.js'
import { stateSchemas } from '../contract/run-state-schema.js'
import { decisionOf } from './decision.js'

/**
 * A fork's edit, checked when the fork is asked for (before any journal is read): it goes into the
 * journal the fork replays, so a malformed one would otherwise surface deep in the loop. Throws
 * `invalid_options` naming the step and what is wrong.
 */
export function checkForkEdit(edit: unknown, at: string): ForkEdit {
  const problem = editProblem(edit)
  if (problem) throw new NestorError('invalid_options', `fork: the edit for step ${at} ${problem}`)
  return edit as ForkEdit
}

function editProblem(edit: unknown): string | undefined {
  if (typeof edit !== 'object' || edit === null || Array.isArray(edit))
    return 'is not one of { toolResult }, { message }, { decision }'
  const { messageSchema, parts } = stateSchemas()
  if ('toolResult' in edit) {
    const given = edit.toolResult
    if (typeof given === 'string') return undefined
    const content = typeof given === 'object' && given !== null ? (given as { content?: unknown }).content : undefined
    const probe = { role: 'toolResult', toolCallId: 'edit', toolName: 'edit', content, isError: false }
    return parts.toolResultMessage.safeParse(probe).success
      ? undefined
      : 'has a toolResult that is neither a string nor a tool output ({ content: [...] } with text, image, ... parts)'
  }
  if ('message' in edit) {
    const given = edit.message
    if (typeof given === 'string') return undefined
    if (Array.isArray(given))
      return given.every((m) => messageSchema.safeParse(m).success)
        ? undefined
        : 'has a message list holding a malformed message'
    const role = typeof given === 'object' && given !== null ? (given as { role?: unknown }).role : undefined
    if (role !== 'assistant')
      return `has a message whose role is ${JSON.stringify(role) ?? 'missing'}: a model step takes a string or an assistant message`
    return parts.assistantMessage.safeParse(given).success
      ? undefined
      : 'has a malformed assistant message (content must be an array of text, thinking and toolCall parts)'
  }
  if ('decision' in edit) {
    const decision = decisionOf(edit.decision)
    return typeof decision === 'string' ? `has ${decision}` : undefined
  }
  return 'is not one of { toolResult }, { message }, { decision }'
}
