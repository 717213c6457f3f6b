import { Agent, tool } from '@nestor/agents'
import { Runtime, registry } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { call } from '../support/agent-runs.js'
import { directToolContext } from '../support/tool-context.js'

afterEach(() => {
  registry.remove('agents_test_clock')
  registry.remove('agents_test_version')
})

describe('@tool({ register: true })', () => {
  it('registers an instance method when an instance is constructed, bound to that instance', async () => {
    class Clock extends Agent {
      instructions = 'You tell time.'
      constructor(readonly now: string) {
        super()
      }
      @tool({ name: 'agents_test_clock', description: 'Current time', parameters: z.object({}), register: true })
      time() {
        return this.now
      }
    }
    expect(registry.get('agents_test_clock')).toBeUndefined()
    new Clock('09:00')
    new Clock('10:00')

    // exec without tools resolves the full registry: the last constructed instance's tool is there.
    const provider = scripted([call('agents_test_clock', {}), 'done'])
    const result = await new Runtime({ provider, model: 'm' }).exec('time?')
    expect(provider.requests[0]!.tools.map((t) => t.name)).toContain('agents_test_clock')
    expect(result.messages.find((m) => m.role === 'toolResult')?.content).toEqual([{ type: 'text', text: '10:00' }])
  })

  it('registers a static method once, when the class is defined', () => {
    class Info {
      static readonly version = '1.2.3'
      @tool({ name: 'agents_test_version', description: 'Version', parameters: z.object({}), register: true })
      static version_() {
        return this.version
      }
    }
    const registered = registry.get('agents_test_version')!
    const ctx = directToolContext('t')
    expect(registered.execute({}, ctx)).toBe('1.2.3')
    expect(Info.version_()).toBe('1.2.3')
  })

  it('leaves tools without register out of the registry', () => {
    class Quiet extends Agent {
      instructions = ''
      @tool({ description: 'Quiet', parameters: z.object({}) })
      hush() {
        return ''
      }
    }
    new Quiet()
    expect(registry.get('hush')).toBeUndefined()
  })
})
