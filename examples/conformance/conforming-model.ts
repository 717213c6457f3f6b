import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted, type ScriptedProvider, type ScriptedTurn } from '@nestor/providers'

const fixture_id = 'calc-add'

/**
 * A scripted model that follows the conformance workflow: read → run → write → answer. It decides
 * from the tool results in the request, so it also works when the harness is run twice. Fixed
 * call ids keep re-recorded cassettes identical.
 */
export function conformingModel(): ScriptedProvider {
  return scripted((request: ModelRequest): ScriptedTurn => {
    const done = new Set(request.messages.flatMap((m) => (m.role === 'toolResult' ? [m.toolName] : [])))
    if (!done.has('read_fixture')) {
      return {
        content: [
          { type: 'text', text: 'Reading the fixture first.' },
          { type: 'toolCall', id: 'call_read', name: 'read_fixture', arguments: { fixture_id } },
        ],
      }
    }
    if (!done.has('run_fixture_test')) {
      return {
        content: [
          { type: 'text', text: 'Running its test.' },
          { type: 'toolCall', id: 'call_run', name: 'run_fixture_test', arguments: { fixture_id } },
        ],
      }
    }
    if (!done.has('write_fixture_patch')) {
      const patch = 'export function add(a: number, b: number): number {\n  return a + b\n}\n'
      return {
        content: [
          { type: 'toolCall', id: 'call_write', name: 'write_fixture_patch', arguments: { fixture_id, patch } },
        ],
      }
    }
    return 'add() subtracted instead of adding, so add(2, 3) gave -1; the patch returns a + b.'
  })
}
