import { describe, expect, it } from 'vitest'
import { main } from '../../examples/demo/main.js'
import { modelInfo } from '@nestor/providers'

async function runDemo(argv: string[]): Promise<{ code: number; output: string }> {
  let output = ''
  const code = await main(argv, { write: (text) => void (output += text), interactive: false })
  return { code, output }
}

describe("the demo (the README's first command) runs offline on its committed cassette", () => {
  it('completes and shows nested execs indented by depth, step budgets, tool timings, an approval and usage', async () => {
    const { code, output } = await runDemo([])
    expect(code).toBe(0)
    const lines = output.split('\n')
    // Nesting: the planner at depth 0, the two agents-as-tools at depth 1, indented under it.
    expect(lines).toContain('▶ planner (depth 0) tools: research, budget, save_brief')
    expect(lines).toContain('    ▶ research (depth 1) tools: search_notes, read_note')
    expect(lines).toContain('    ▶ budget (depth 1) tools: add_costs')
    // Budgets: "step n/m" for the root (20) and each nested loop (its own maxIterations).
    expect(lines).toContain('step 1/20')
    expect(lines).toContain('step 4/20')
    expect(lines).toContain('    step 3/6')
    expect(lines).toContain('    step 2/4')
    // Tool calls with timings, at the depth of the exec that ran them.
    expect(output).toMatch(/\n {6}✓ search_notes \d+ms /)
    expect(output).toMatch(/\n {2}✓ research \d+ms /)
    // The approval: required, then decided without a terminal.
    expect(output).toContain('  ⚠ approval required: save_brief')
    expect(output).toContain('  ✓ approved save_brief (auto-approved: not an interactive terminal)')
    expect(output).toMatch(/\n {2}✓ save_brief \d+ms saved brief "Lisbon in May"/)
    // The demo's tool guardrail checks the approved brief before it is saved.
    expect(lines).toContain('  guardrail brief_states_cost before save_brief: pass')
    // Streaming text and the summary.
    expect(output).toContain("  │ I'll get the facts first.")
    expect(output).toMatch(/usage: \d+ input \+ \d+ output = \d+ tokens \(whole tree\) · \$\d+\.\d{6}\n/)
    // The offline model is priced at gpt-4o-mini's catalogue rates: the dollars are the tokens at those rates.
    const [, input, outputTokens, dollars] =
      /usage: (\d+) input \+ (\d+) output = \d+ tokens \(whole tree\) · \$([\d.]+)/.exec(output) ?? []
    const rates = (await modelInfo('openai', 'gpt-4o-mini')).prices!
    expect(Number(dollars)).toBeCloseTo((Number(input) * rates.input + Number(outputTokens) * rates.output) / 1e6, 6)
    expect(output).toContain('steps: 4 at the root, 9 in the tree · tool calls: 7')
  })

  it('is plain text when not in a terminal: no ANSI escape codes', async () => {
    const { output } = await runDemo([])
    expect(output).not.toMatch(/\u001b\[/)
  })

  it('--json prints the event stream as JSON lines, nested events included', async () => {
    const { code, output } = await runDemo(['--json'])
    expect(code).toBe(0)
    const events = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; depth: number })
    expect(events[0]?.type).toBe('agent_start')
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', depth: 0 })
    expect(events.some((e) => e.type === 'approval_required')).toBe(true)
    expect(new Set(events.map((e) => e.depth))).toEqual(new Set([0, 1]))
  })

  it('a rejected approval is replayed too: the tool gets an error result and the planner says so', async () => {
    const { code, output } = await runDemo(['--no'])
    expect(code).toBe(0)
    expect(output).toContain('  ✗ rejected save_brief (--no)')
    expect(output).toMatch(/\n {2}✗ save_brief \d+ms rejected: the user said no/)
    expect(output).toContain('The brief was not saved (not approved).')
  })
})
