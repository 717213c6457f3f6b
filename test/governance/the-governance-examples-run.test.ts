import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { main as callGates } from '../../examples/governance/call-gates.js'
import { main as inProcess } from '../../examples/governance/in-process-approvals.js'
import { main as redactionAndBudgets } from '../../examples/governance/redaction-and-budgets.js'
import { main as batches } from '../../examples/governance/batches.js'
import { main as boundedBatches } from '../../examples/governance/bounded-batches.js'
import { main as controlEnvelopes } from '../../examples/governance/control-envelopes.js'
import { main as declaredRegistry } from '../../examples/governance/declared-registry.js'

const roundTrip = fileURLToPath(new URL('../../examples/dist/governance/approval-round-trip.js', import.meta.url))

describe('the examples docs/governance.md runs', () => {
  it('in-process approvals: the handler sees the depth-1 request with its path and edits the amount', async () => {
    const { result, requests } = await inProcess(() => {})
    expect(result.status).toBe('completed')
    expect(requests).toHaveLength(1)
    expect(requests[0]!.path).toHaveLength(2)
    expect(
      result.history.some((m) => m.role === 'toolResult' && JSON.stringify(m.content).includes('Refund handled')),
    ).toBe(true)
  })

  it('call gates: duplicate, retries, timeout, output gate, cache and breaker show in receipts', async () => {
    const { receipts, breaker } = await callGates(() => {})
    expect(receipts.map((r) => r.status)).toEqual(['ok', 'duplicate_call', 'ok', 'timeout', 'ok', 'tool_error', 'ok'])
    expect(receipts.at(-1)!.cached).toBe(true)
    expect(receipts[2]!.attempts).toBe(3)
    expect(breaker).toBe('tool ping failed 2 consecutive times with identical arguments')
  })

  it('redaction and budgets: no event holds the password, and the budget breach names maxTotalIterations', async () => {
    const { events, budget } = await redactionAndBudgets(() => {})
    expect(events.length).toBeGreaterThan(0)
    expect(events.some((e) => JSON.stringify(e).includes('pg-pass-0c9d8e7f'))).toBe(false)
    expect(budget.error?.message).toMatch(/maxTotalIterations/)
  })

  it('batches: lanes come back in input order and a bad plan is refused', async () => {
    const { parallel, refused } = await batches(() => {})
    expect(parallel.lanes.map((l) => l.itemKey)).toEqual(['panorama.png', 'a.png', 'logo.png'])
    expect(refused).toMatch(/^invalid_options/)
  })

  it('bounded batches: a tool concurrency of 2 holds across two batches and a plan over maxLanes is refused', async () => {
    const { maxInFlight, refused } = await boundedBatches(() => {})
    expect(maxInFlight).toBe(2)
    expect(refused).toMatch(/^invalid_options: .*4 lanes exceed maxLanes 3/)
  })

  it('control envelopes: a blocked deploy stops the exec with its diagnosis, and only its own batch lane', async () => {
    const { result, batch, deployed } = await controlEnvelopes(() => {})
    expect(result.status).toBe('completed')
    expect(result.stopped).toMatchObject({ reason: 'control_stop', toolCallId: 'web' })
    expect(result.stopped?.control.diagnosis).toEqual({ why: 'migration pending', ticket: 'OPS-12' })
    expect(deployed.slice(0, 2)).toEqual(['api', 'web'])
    expect(batch.lanes.map((l) => [l.itemKey, l.results.length, l.stopped?.callKey])).toEqual([
      ['web', 1, 'deploy'],
      ['jobs', 2, undefined],
    ])
  })

  it("declared registry: each owner runs with its manifest's allowed tools, and an undeclared owner is refused", async () => {
    const { support, billing, refused } = await declaredRegistry(() => {})
    expect(support.receipts.map((r) => [r.toolName, r.status])).toEqual([
      ['lookup_order', 'ok'],
      ['issue_refund', 'unknown_tool'],
    ])
    expect(billing.receipts.map((r) => [r.toolName, r.status])).toEqual([['issue_refund', 'ok']])
    expect(refused).toMatch(/^invalid_options: invalid option owner: .*"sales"/)
  })

  it('the approval round trip pauses in one node process and completes in another (built code: run `npx tsc -b` first)', async () => {
    expect(existsSync(roundTrip), `${roundTrip} is missing: run npx tsc -b`).toBe(true)
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [roundTrip], { stdio: ['ignore', 'pipe', 'pipe'] })
      let text = ''
      child.stdout.on('data', (c: Buffer) => (text += c.toString()))
      child.on('error', reject)
      child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`exit ${code}`))))
    })
    const pids = [...out.matchAll(/\[pid (\d+)\] deploying api to (\w+)/g)].map((m) => [m[1], m[2]])
    expect(pids.map(([, env]) => env)).toEqual(['staging', 'production'])
    expect(pids[0]![0]).not.toBe(pids[1]![0]) // production ran in the other process
    expect(out).toMatch(
      /resumed elsewhere: completed, "The api is live on staging and production\.", iterations used: 2/,
    )
  })
})
