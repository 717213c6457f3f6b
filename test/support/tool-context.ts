import type { ToolContext } from '@nestor/core'

/** The context a test passes when it calls a tool's `execute` directly, outside any exec. */
export const directToolContext = (toolCallId = 't'): ToolContext => ({
  signal: new AbortController().signal,
  toolCallId,
  idempotencyKey: `key-${toolCallId}`,
  execId: 'e',
  depth: 0,
  update() {},
  log() {},
  exec() {
    throw new Error('directToolContext: no exec outside a runtime')
  },
  ask() {
    throw new Error('directToolContext: no one to ask outside a runtime')
  },
})
