// The offline "model": a scripted provider that answers by role (system prompt) and by what the
// conversation already holds, as a real model would, so the example runs without a key.
import type { Message } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted, type ScriptedProvider, type ScriptedTurn } from '@nestor/providers'
import { FactChecker, Researcher } from './agents.js'

const call = (name: string, args: Record<string, unknown>): ScriptedTurn => ({
  content: [{ type: 'toolCall', name, arguments: args }],
  stopReason: 'toolUse',
})
const text = (m: Message | undefined) =>
  !m ? '' : typeof m.content === 'string' ? m.content : m.content.map((c) => ('text' in c ? c.text : '')).join('')
const results = (r: ModelRequest) => r.messages.filter((m) => m.role === 'toolResult')

export function researchModel(): ScriptedProvider {
  const checker = new FactChecker().instructions
  const researcher = new Researcher({}).instructions
  return scripted((request) => {
    const done = results(request)
    const input = text(request.messages.find((m) => m.role === 'user'))
    if (request.system === checker) {
      return done.length === 0 ? call('lookup', { keyword: input.split(' ')[0] ?? '' }) : `verified: ${text(done[0])}`
    }
    if (request.system === researcher) {
      const topic = input.replace(/^Investigate /, '')
      if (done.length === 0) return call('search', { q: topic })
      if (done.length === 1) return call('fact_check', { input: `${topic} ${text(done[0])}` })
      return `Findings on ${topic}: ${text(done[0])} Fact check: ${text(done[1])}`
    }
    return done.length === 0 ? call('investigate', { topic: 'decorators' }) : `Brief. ${text(done[0])}`
  })
}
