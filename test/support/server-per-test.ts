import { afterEach, beforeEach } from 'vitest'

/** A server started before each test and closed after it; `get()` reads the current one. */
export function serverPerTest<S extends { close(): Promise<void> }>(start: () => Promise<S>): () => S {
  let server: S | undefined
  beforeEach(async () => {
    server = await start()
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
  })
  return () => {
    if (!server) throw new Error('wire server not started')
    return server
  }
}
