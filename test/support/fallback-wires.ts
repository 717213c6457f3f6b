import { afterEach, beforeEach } from 'vitest'
import { startWireServer, type WireServer } from './wire-server.js'

export { scenario as anthropicScenario } from './anthropic-wire.js'

export const json = { 'content-type': 'application/json' }
export const unavailable = {
  status: 503,
  headers: { ...json, 'retry-after-ms': '1' },
  body: JSON.stringify({ error: { message: 'The server is overloaded', type: 'server_error', code: null } }),
}

/** Two wire servers per test (one per provider in the chain), closed afterwards. */
export function useTwoWires(): { readonly first: WireServer; readonly second: WireServer } {
  let servers: WireServer[] = []
  beforeEach(async () => {
    servers = [await startWireServer(), await startWireServer()]
  })
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()))
    servers = []
  })
  return {
    get first() {
      return servers[0] as WireServer
    },
    get second() {
      return servers[1] as WireServer
    },
  }
}

export { collectModelEvents as collect } from './model-events.js'
