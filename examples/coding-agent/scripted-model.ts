import type { Message } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted, type ScriptedProvider, type ScriptedTurn } from '@nestor/providers'

const call = (id: string, name: string, args: Record<string, unknown>, say?: string): ScriptedTurn => ({
  content: [
    ...(say ? [{ type: 'text' as const, text: say }] : []),
    { type: 'toolCall' as const, id, name, arguments: args },
  ],
})
const textOf = (m: Message): string =>
  m.role === 'toolResult' ? m.content.map((c) => ('text' in c ? c.text : '')).join('') : ''

/**
 * The model behind the offline run: it plays a careful coding agent (run the tests, find the
 * function, read it, fix it, run the tests again) and reacts to each result, a rejected
 * approval included. The committed cassette was recorded from it.
 */
export function codingModel(): ScriptedProvider {
  return scripted((request: ModelRequest): ScriptedTurn => {
    const results = request.messages.filter((m) => m.role === 'toolResult')
    const last = results.at(-1)
    const runs = results.filter((r) => r.toolName === 'shell')
    if (runs.length === 0)
      return call('call_test', 'shell', { command: 'node test/slugify.test.js' }, 'Running the tests first.')
    if (runs.length === 1 && runs[0]!.isError) return 'I was not allowed to run the tests, so I changed nothing.'
    if (!results.some((r) => r.toolName === 'grep'))
      return call(
        'call_find',
        'grep',
        { pattern: 'function slugify', path: 'src' },
        'One case fails: words after the second are not joined. Finding slugify.',
      )
    if (!results.some((r) => r.toolName === 'read_file'))
      return call('call_read', 'read_file', { path: 'src/slugify.js' })
    const edit = results.find((r) => r.toolName === 'edit_file')
    if (!edit)
      return call(
        'call_fix',
        'edit_file',
        { path: 'src/slugify.js', old_string: ".replace(' ', '-')", new_string: ".split(/\\s+/).join('-')" },
        "replace(' ', '-') changes only the first space. Splitting on runs of whitespace fixes it.",
      )
    if (edit.isError)
      return `The fix was not applied (${textOf(edit)}). The bug: slugify replaces only the first space.`
    if (runs.length === 1)
      return call('call_retest', 'shell', { command: 'node test/slugify.test.js' }, 'Running the tests again.')
    if (last?.isError) return 'The fix is in src/slugify.js; I could not run the tests again to confirm it.'
    return /3 of 3 passed/.test(textOf(last!))
      ? 'Fixed: slugify now joins every word with one dash (src/slugify.js); all 3 tests pass.'
      : 'The tests still fail after the edit; see the output above.'
  })
}
