import { DBOS } from '@dbos-inc/dbos-sdk'
import type { DurableEvent } from '@nestor/dbos'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'

// docs/dbos.md, "the provider unreachable": the model mock answers 503 to this run's requests.

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('quick')
  await cluster.worker({ EXECUTOR_ID: 'offline-1' })
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

test('a run whose provider is down ends failed with provider_error, recorded: the workflow succeeded with that result, and a restart does not ask again', async () => {
  const handle = await cluster.trips.start('unreachable: Lisbon', { workflowId: 'offline-1' })
  const result = await handle.result()
  expect(result.status).toBe('failed')
  expect(result.error).toMatchObject({ code: 'provider_error' })
  expect((await DBOS.getWorkflowStatus('offline-1'))?.status).toBe('SUCCESS')
  const events: DurableEvent[] = []
  for await (const event of cluster.trips.events('offline-1')) events.push(event)
  const last = events.at(-1)!
  if (last.type !== 'agent_end') throw new Error(`the stream ended with ${last.type}`)
  expect(last.result).toMatchObject({ status: 'failed', error: { code: 'provider_error' } })

  // A worker restarted on the same executor finds nothing to recover: the model is not asked again.
  const calls = cluster.model.calls()
  await cluster.worker({ EXECUTOR_ID: 'offline-1' })
  expect((await cluster.trips.handle('offline-1').result()).status).toBe('failed')
  expect(cluster.model.calls()).toBe(calls)
}, 60_000)
