import { readFileSync } from 'node:fs'
import { startWireServer, type WireServer } from './wire-server.js'

/** A recorded response body of test/providers/wire/<dir>/<name>. */
export const scenario = (dir: string, name: string) =>
  readFileSync(new URL(`../providers/wire/${dir}/${name}`, import.meta.url), 'utf8')

/** The JSON body of the i-th request the server got. */
export const json = (server: WireServer, i = 0) => server.requests[i]?.json as Record<string, unknown>

/** Runs `run` against a fresh wire server, closed afterwards. */
export async function withWire<T>(run: (server: WireServer) => Promise<T>): Promise<T> {
  const server = await startWireServer()
  try {
    return await run(server)
  } finally {
    await server.close()
  }
}
