import { startMockServer } from './mock-server.js'

// Runs the mock server as its own process, so its CPU time never counts against a system under
// test (on 2 cores, server and client each get one). Prints the port once listening.
const server = await startMockServer(Number(process.env.BENCH_PORT ?? 0))
process.stdout.write(`${JSON.stringify({ port: server.port, baseURL: server.baseURL })}\n`)
const stop = (): void => {
  void server.close().then(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
process.on('disconnect', stop)
