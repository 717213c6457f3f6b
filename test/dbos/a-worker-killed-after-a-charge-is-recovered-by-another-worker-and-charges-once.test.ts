import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'
import { startPaymentsApi, type PaymentsApi } from '../support/payments-api.js'

let cluster: Cluster
let payments: PaymentsApi
beforeAll(async () => {
  payments = await startPaymentsApi()
  cluster = await startCluster('pay')
  cluster.env['PAYMENTS_URL'] = payments.url
}, 60_000)
afterAll(async () => {
  await cluster?.stop()
  await payments?.close()
}, 30_000)

test('a worker SIGKILLed after the payments API charged, before the result was recorded, is taken over by another worker: one charge', async () => {
  payments.holdFrom = 1
  const victim = await cluster.worker({ EXECUTOR_ID: 'pay-a' })
  const handle = await cluster.trips.start('Pay for Lisbon', { workflowId: 'pay-1' })
  await payments.waitForCharges(1)
  await victim.kill()
  payments.holdFrom = Infinity

  // Another executor id: the dead one is never restarted; the survivor takes its execs over.
  const survivor = await cluster.worker({ EXECUTOR_ID: 'pay-b', RECOVER: 'pay-a' })
  const result = await handle.result()
  // Nobody steered the run: it has no inbox workflow to recover.
  expect(survivor.lines).toContainEqual({ recovered: ['pay-1'] })
  expect(result.status).toBe('completed')
  expect(result.text).toBe('paid: charge ch_1')
  // The body ran twice (once per worker) with one key; the API charged once.
  const runs = cluster.toolRuns()
  expect(runs).toHaveLength(2)
  expect(new Set(runs).size).toBe(1)
  expect(payments.charges).toHaveLength(1)
  expect(payments.keys).toEqual([payments.charges[0]!.key, payments.charges[0]!.key])

  // Another run with the same tool call id gets its own charge.
  const other = await (await cluster.trips.start('Pay for Porto', { workflowId: 'pay-2' })).result()
  expect(other.text).toBe('paid: charge ch_2')
  expect(payments.charges).toHaveLength(2)
}, 120_000)
