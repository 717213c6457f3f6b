// The deterministic conversation every system under test has with the mock server.
// Both sides import this file: the server to decide what to answer, the runners to build prompts
// and to verify what came back. The server is stateless: it decides the turn from the request body.

/** What a single run asks for. Parsed back by the server from a marker in the prompt text. */
export type Scenario =
  /**
   * T assistant turns each calling `echo` once, then a final text in C chunks. `mcp` asks for the
   * argument shape of the MCP reference server's `echo` (`{ message }`, answered `Echo: …`).
   */
  | { kind: 'tools'; t: number; c: number; mcp?: true }
  /** Depth d calls `spawn` (whose body opens a child exec at d+1) until d = max, which answers text. */
  | { kind: 'nested'; depth: number; max: number; c: number }

export const MODEL = 'bench-model'
export const API_KEY = 'sk-bench-not-a-real-key'
export const SYSTEM = 'You are a benchmark assistant. Call tools when asked.'

export const ECHO_DESCRIPTION = 'Echo the given text back'
export const SPAWN_DESCRIPTION = 'Run a nested agent one level deeper'

/** The marker the server looks for in the latest user message that carries one. */
export function promptFor(s: Scenario): string {
  const marker =
    s.kind === 'tools'
      ? `[[bench tools t=${s.t} c=${s.c}${s.mcp ? ' mcp=1' : ''}]]`
      : `[[bench nested depth=${s.depth} max=${s.max} c=${s.c}]]`
  return `${marker} Please do the benchmark task.`
}

const MARKER = /\[\[bench (tools|nested) ([^\]]*)\]\]/

export function parseMarker(text: string): Scenario | undefined {
  const m = MARKER.exec(text)
  if (!m) return undefined
  const fields: Record<string, number> = {}
  for (const pair of (m[2] ?? '').split(' ')) {
    const [k, v] = pair.split('=')
    if (k && v !== undefined) fields[k] = Number(v)
  }
  const num = (k: string): number => {
    const v = fields[k]
    if (v === undefined || !Number.isInteger(v) || v < 0) throw new Error(`bad bench marker field ${k} in ${m[0]}`)
    return v
  }
  return m[1] === 'tools'
    ? { kind: 'tools', t: num('t'), c: num('c'), ...(fields.mcp === 1 && { mcp: true as const }) }
    : { kind: 'nested', depth: num('depth'), max: num('max'), c: num('c') }
}

/** The C chunks of the final answer. Joined, they are the text a runner must report. */
export function textChunks(c: number): string[] {
  const out: string[] = []
  for (let i = 0; i < c; i++) out.push(`tok${i} `)
  return out
}

export function expectedText(c: number): string {
  return textChunks(c).join('')
}

/** The value the `echo` tool must return on turn i; the server checks it came back. */
export const echoResult = (turn: number): string => `echo-${turn}-ok`

/** Arguments of turn i's `echo` call, padded so they are worth fragmenting (MCP's echo takes no pad). */
export function echoArguments(turn: number, mcp = false): string {
  return JSON.stringify(mcp ? { message: echoResult(turn) } : { text: echoResult(turn), pad: 'x'.repeat(64) })
}

/** Splits a JSON argument string into `n` fragments of near-equal length, as models stream them. */
export function fragments(json: string, n = 6): string[] {
  const size = Math.ceil(json.length / n)
  const out: string[] = []
  for (let i = 0; i < json.length; i += size) out.push(json.slice(i, i + size))
  return out
}

/** Tool calls a run must have executed in total (all depths). */
export function expectedToolCalls(s: Scenario): number {
  return s.kind === 'tools' ? s.t : s.max - s.depth
}

/** What a runner reports about one run; `verify` compares it with the scenario. */
export type Outcome = { toolCalls: number; text: string }

/** Throws loudly unless the run executed exactly the expected tool calls and got the whole text. */
export function verify(system: string, s: Scenario, outcome: Outcome): void {
  const calls = expectedToolCalls(s)
  if (outcome.toolCalls !== calls) {
    throw new Error(`[${system}] expected ${calls} tool calls, ${outcome.toolCalls} ran (${JSON.stringify(s)})`)
  }
  const text = expectedText(s.c)
  if (outcome.text !== text) {
    const got =
      outcome.text.length > 120 ? `${outcome.text.slice(0, 120)}… (${outcome.text.length} chars)` : outcome.text
    throw new Error(`[${system}] final text differs: expected ${text.length} chars, got ${JSON.stringify(got)}`)
  }
}

/**
 * A provider-neutral prior conversation of `n` messages (n divisible by 4): user question,
 * assistant tool call, tool result, assistant answer — the shape real agent histories have.
 * Each runner converts it to its own message format.
 */
export type HistoryItem =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string }
  | { role: 'assistantCall'; id: string; name: string; args: string }
  | { role: 'toolResult'; id: string; name: string; text: string }

export function priorHistory(n: number): HistoryItem[] {
  if (n % 4 !== 0) throw new Error('history length must be a multiple of 4')
  const out: HistoryItem[] = []
  const filler = 'lorem ipsum dolor sit amet '.repeat(4)
  for (let i = 0; i < n / 4; i++) {
    const id = `call_hist_${i}`
    out.push({ role: 'user', text: `Question ${i}: ${filler}` })
    out.push({
      role: 'assistantCall',
      id,
      name: 'echo',
      args: JSON.stringify({ text: `hist-${i}`, pad: 'y'.repeat(16) }),
    })
    out.push({ role: 'toolResult', id, name: 'echo', text: `hist-${i}` })
    out.push({ role: 'assistant', text: `Answer ${i}: ${filler}` })
  }
  return out
}
