import type { QueueMode } from '../contract/exec-types.js'
import type { UserMessage } from '../contract/types.js'

/** Steering or follow-up messages waiting for the loop. `mode` decides how many one drain takes. */
export class MessageQueue {
  private items: UserMessage[] = []
  constructor(readonly mode: QueueMode) {}

  push(message: UserMessage): void {
    this.items.push(message)
  }
  get pending(): boolean {
    return this.items.length > 0
  }
  drain(): UserMessage[] {
    if (this.items.length === 0) return []
    if (this.mode === 'one') return [this.items.shift() as UserMessage]
    const all = this.items
    this.items = []
    return all
  }
}

export const toUserMessage = (input: string | UserMessage): UserMessage =>
  typeof input === 'string' ? { role: 'user', content: input } : input
