import type { Message } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted, type ScriptedProvider, type ScriptedTurn } from '@nestor/providers'

export const fixture_id = 'calc-add'
const PATCH = 'export function add(a: number, b: number): number {\n  return a + b\n}\n'
type Call = { type: 'toolCall'; id?: string; name: string; arguments: Record<string, unknown> | string }
const call = (name: string, args: Record<string, unknown> | string): Call => ({
  type: 'toolCall',
  name,
  arguments: args,
})
const calls = (...list: Call[]): ScriptedTurn => ({ content: list })
const resultsIn = (messages: Message[]) => messages.filter((m) => m.role === 'toolResult').length

/** A model that plays `turns` one per request, by how many tool results it has seen so far. */
const sequence = (turns: ScriptedTurn[]): ScriptedProvider =>
  scripted((_request: ModelRequest, index: number) => turns[index] ?? 'done')

export const read = call('read_fixture', { fixture_id })
export const run = call('run_fixture_test', { fixture_id })
export const write = call('write_fixture_patch', { fixture_id, patch: PATCH })
export const ANSWER = 'add() subtracted; the patch returns a + b.'

export const followsTheWorkflow = () => sequence([calls(read), calls(run), calls(write), ANSWER])

/** One model per failure class, each making exactly one kind of mistake. */
export const violators = {
  NoToolCall: () => sequence(['I would read the fixture, run its test and patch it.']),
  InvalidToolName: () =>
    sequence([calls(call('read_file', { fixture_id })), calls(read), calls(run), calls(write), ANSWER]),
  InvalidToolArguments: () =>
    sequence([calls(call('read_fixture', { fixture_id: 'calc_add' })), calls(read), calls(run), calls(write), ANSWER]),
  DuplicateToolCall: () => sequence([calls(read), calls(read), calls(run), calls(write), ANSWER]),
  ToolLoopDidNotConverge: () => sequence([calls(read), calls(run), calls(read), calls(write), ANSWER]),
} as const

/** Other shapes of the same classes. */
export const moreViolators = {
  'malformed JSON arguments': [
    'InvalidToolArguments',
    () =>
      sequence([
        calls(call('read_fixture', '{"fixture_id": "calc-add"')),
        calls(read),
        calls(run),
        calls(write),
        ANSWER,
      ]),
  ],
  'an extra property (closed schema)': [
    'InvalidToolArguments',
    () =>
      sequence([
        calls(read),
        calls(run),
        calls(call('write_fixture_patch', { fixture_id, patch: PATCH, force: true })),
        calls(write),
        ANSWER,
      ]),
  ],
  'an answer before writing the patch': [
    'ToolLoopDidNotConverge',
    () => sequence([calls(read), calls(run), 'The test fails because add subtracts.']),
  ],
  'a run after the write': [
    'ToolLoopDidNotConverge',
    () => sequence([calls(read), calls(run), calls(write), calls(call('run_fixture_test', { fixture_id })), ANSWER]),
  ],
  'skipping the read': ['ToolLoopDidNotConverge', () => sequence([calls(run), calls(read), calls(write), ANSWER])],
  'calling tools past 8 turns': [
    'ToolLoopDidNotConverge',
    () =>
      scripted((request) =>
        resultsIn(request.messages) === 0
          ? calls(read)
          : calls(call('write_fixture_patch', { fixture_id, patch: `v${resultsIn(request.messages)}` })),
      ),
  ],
} as const
