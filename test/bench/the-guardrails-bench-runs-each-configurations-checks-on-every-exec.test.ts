import { describe, expect, it } from 'vitest'
import { renderGuardrailsBench, runGuardrailsBench } from '../../bench/guardrails.js'

// Its timings are the bench's business; this test holds what they are timings of: every exec of a
// guarded configuration ran both of its checks, and the baseline ran none.
describe('the guardrails bench', () => {
  it('runs two checks per exec in each guarded configuration and none in the baseline, and renders a ratio per row', async () => {
    const report = await runGuardrailsBench(1)
    // Three warm-up batches and one measured batch of 40 execs each.
    expect(report.rows.map((r) => [r.name, r.checks])).toEqual([
      ['no guardrails', 0],
      ['input + output guardrail', 2 * 4 * 40],
      ['two tool guardrails (before + after)', 2 * 4 * 40],
    ])
    expect(report.rows.every((r) => r.ms > 0)).toBe(true)
    expect(renderGuardrailsBench(report)).toMatch(/\| input \+ output guardrail \| .* \| \d+\.\d{3}× \|/)
  })
})
