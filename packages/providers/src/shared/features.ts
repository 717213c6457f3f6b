/**
 * What an adapter declares it supports, one row of the adapters × features table in
 * docs/providers.md (a test renders these rows and checks the page holds them verbatim).
 * Cells are short phrases; `false` is rendered as "no".
 */
export type AdapterFeatures = {
  /** The factory call as a reader would write it. */
  adapter: string
  tools: boolean
  /** Which of auto / required / none / a named function reach the API, and how. */
  toolChoice: string
  /** The parallel-calls knob, if the protocol has one. */
  parallelCalls: string
  thinking: string | false
  /** Image parts accepted in user messages and tool results. */
  images: string
  /** File parts (documents) accepted. */
  files: string | false
  /** Prompt caching: what the adapter sends, and whether cached tokens are reported. */
  caching: string
  structuredOutput: string | false
  /** Usage fields filled (of input, output, cacheRead, cacheWrite, total). */
  usage: string
}

export const FEATURE_COLUMNS = [
  'adapter',
  'tools',
  'toolChoice',
  'parallelCalls',
  'thinking',
  'images',
  'files',
  'caching',
  'structuredOutput',
  'usage',
] as const

export const FEATURE_HEADERS: Record<(typeof FEATURE_COLUMNS)[number], string> = {
  adapter: 'adapter',
  tools: 'tools',
  toolChoice: 'tool choice',
  parallelCalls: 'parallel calls',
  thinking: 'thinking',
  images: 'images',
  files: 'files',
  caching: 'caching',
  structuredOutput: 'structured output',
  usage: 'usage fields',
}

const cell = (value: string | boolean): string => (value === true ? 'yes' : value === false ? 'no' : value)

/** The markdown table of the given adapters (header, separator, one row each). */
export function featuresTable(rows: readonly AdapterFeatures[]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  return [
    line(FEATURE_COLUMNS.map((c) => FEATURE_HEADERS[c])),
    line(FEATURE_COLUMNS.map(() => '---')),
    ...rows.map((row) => line(FEATURE_COLUMNS.map((c) => cell(row[c])))),
  ].join('\n')
}
