import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTripMock, type TripMock } from './support/trip-mock.js'
import { startNode } from './support/processes.js'
import { startPaymentsApi, type PaymentsApi } from '../support/payments-api.js'
import { scratchDir } from '../support/scratch-dir.js'

// The payment tools of this trip pass ctx.idempotencyKey to a local payments API that dedupes on
// it. A process is SIGKILLed after the API made a charge and before the tool got the answer (so
// the journal has no result for it); the recovery runs the body again, and the API charges nothing.
const trip = fileURLToPath(new URL('./fixtures/payment-process.mjs', import.meta.url))

let model: TripMock
let payments: PaymentsApi
beforeAll(async () => {
  model = await startTripMock()
  payments = await startPaymentsApi()
})
afterAll(async () => {
  await model.close()
  await payments.close()
})

describe('a tool killed after its charge, before its result was recorded', () => {
  it('charges once: the recovered body sends the same idempotency key, and every other call its own', async () => {
    const dir = scratchDir('nestor-pay-')
    const reference = await startNode(trip, [model.baseURL, join(dir, 'ref.ndjson'), payments.url, 'trip-ref']).done
    expect(reference.status).toBe('completed')
    expect(payments.charges.map((c) => c.amount)).toEqual([120, 1])

    payments.holdFrom = 3
    const journal = join(dir, 'trip.ndjson')
    const first = startNode(trip, [model.baseURL, journal, payments.url, 'trip-42'])
    first.done.catch(() => undefined)
    await payments.waitForCharges(3)
    const killed = new Promise((resolve) => first.child.on('close', (_code, signal) => resolve(signal)))
    first.child.kill('SIGKILL')
    expect(await killed).toBe('SIGKILL')
    const killedKey = payments.charges[2]!.key

    payments.holdFrom = Infinity
    const second = await startNode(trip, [model.baseURL, journal, payments.url, 'trip-42']).done
    expect(second.status).toBe('completed')
    expect(second.text).toMatch(/charged 120 as ch_3/)
    // Four charges for two runs of two paying calls: none twice, though the killed body ran twice.
    expect(payments.charges.map((c) => [c.id, c.amount])).toEqual([
      ['ch_1', 120],
      ['ch_2', 1],
      ['ch_3', 120],
      ['ch_4', 1],
    ])
    expect(payments.keys.filter((key) => key === killedKey)).toHaveLength(2)
    // The same tool call ids in both runs, and still a key per call: the run id is in it.
    expect(new Set(payments.charges.map((c) => c.key)).size).toBe(4)
    expect(payments.charges.every((c) => /^[0-9a-f]{64}$/.test(c.key))).toBe(true)
  })
})
