import { describe, expect, it } from 'vitest'
import { NestorError, Runtime, ToolRegistry, defineTool, type Tool } from '@nestor/core'
import { scripted } from '@nestor/providers'

const BAD_NAMES = ['has space', 'x'.repeat(200), '', '1starts-with-digit', 'semi;colon', 'emoji_🙂']

const plain = (name: string): Tool => ({
  spec: { name, description: 'A plain tool', parameters: { type: 'object', properties: {} } },
  execute: () => 'ran',
})

function invalidOptions(fn: () => unknown): NestorError {
  try {
    fn()
  } catch (error) {
    if (NestorError.isInstance(error)) return error as NestorError
    throw error
  }
  throw new Error('expected a throw')
}

describe('the tool-name rule', () => {
  it.each(BAD_NAMES.map((n) => [n.length > 30 ? `${n.slice(0, 10)}…(${n.length})` : JSON.stringify(n), n]))(
    'a plain { spec, execute } tool named %s fails invalid_options at exec, and no request reaches the model',
    (_label, name) => {
      let requests = 0
      const inner = scripted(['never'])
      const runtime = new Runtime({
        provider: { name: 'count', stream: (r, s) => (requests++, inner.stream(r, s)) },
        model: 'm',
      })
      const error = invalidOptions(() => runtime.exec('go', { tools: [plain(name)] }))
      expect(error.code).toBe('invalid_options')
      expect(error.message).toContain('invalid tool name')
      expect(requests).toBe(0)
    },
  )

  it('defineTool, a plain tool and a registry registration reject the same names and accept the same names', () => {
    for (const name of BAD_NAMES) {
      expect(
        invalidOptions(() => defineTool({ name, description: 'd', parameters: { type: 'object' }, execute: () => '' }))
          .code,
      ).toBe('invalid_options')
      expect(invalidOptions(() => new ToolRegistry().add(plain(name))).code).toBe('invalid_options')
    }
    for (const name of ['lookup', 'ns.read_file', 'a:b-c', `_${'y'.repeat(63)}`]) {
      expect(() =>
        defineTool({ name, description: 'd', parameters: { type: 'object' }, execute: () => '' }),
      ).not.toThrow()
      expect(() => new ToolRegistry().add(plain(name))).not.toThrow()
    }
  })
})
