import { DBOS } from '@dbos-inc/dbos-sdk'
import { postgresJournal } from '@nestor/dbos'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'
import { endPool } from './support/postgres.js'
import { waitForEvent, waitForStep } from './support/wait.js'

let cluster: Cluster
let pool: pg.Pool
beforeAll(async () => {
  cluster = await startCluster('planner')
  await cluster.worker({ EXECUTOR_ID: 'handed-1', APPROVE_BOOK: '1' })
  pool = new pg.Pool({ connectionString: cluster.postgres.url, max: 2 })
  pool.on('error', () => {})
}, 60_000)
afterAll(async () => {
  await endPool(pool)
  await cluster?.stop()
}, 30_000)

const inboxLength = async (workflowId: string) => {
  for (let offset = 0; ; offset++)
    try {
      await DBOS.readStreamOffset(`${workflowId}.inbox`, 'nestor.inbox', offset, { timeoutSeconds: 0.2 })
    } catch {
      return offset
    }
}

test('a message whose delivery was recorded but that the loop never took (the crash window) is handed to the next leg, once', async () => {
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-handed' })
  const request = await waitForEvent(cluster.trips, 'trip-handed', 'approval_required')
  if (request.type !== 'approval_required') throw new Error('unreachable')
  await waitForStep('trip-handed', 'nestor.exec')
  await cluster.trips.steer('trip-handed', 'take the night train')
  while ((await inboxLength('trip-handed')) === 0) await new Promise((resolve) => setTimeout(resolve, 50))
  // What a leg leaves when it dies right after recording the cursor, before its loop takes the message.
  await postgresJournal(pool).append('trip-handed#inbox', { key: 'inbox:0', kind: 'message', offset: 0 })

  await cluster.trips.decide('trip-handed', { approve: [request.approvals[0]!.toolCallId] })
  const result = await handle.result()
  expect(result.status).toBe('completed')
  const users = result.messages.filter((m) => m.role === 'user').map((m) => m.content)
  expect(users.filter((content) => content === 'take the night train')).toHaveLength(1)
}, 60_000)
