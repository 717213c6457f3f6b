import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { NestorError } from '@nestor/core'
import { canonicalJson } from '@nestor/core/integration-kit'
import { pathNote } from './paths.js'
import type { EvalCase } from './types.js'

export type LoadedCase<I, E> = EvalCase<I, E> & { id: string }

const CASE_KEYS = new Set(['id', 'input', 'expected', 'metadata'])

/**
 * How deep a case may nest. Deeper values parse, but every recursive walk after (the id hash, the
 * filter, redaction, the report) would overflow the stack: refused here, naming the case.
 */
const MAX_DEPTH = 100

/** True when `value` nests deeper than MAX_DEPTH. Iterative: it must not overflow itself. */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (typeof item !== 'object' || item === null) continue
    if (depth > MAX_DEPTH) return true
    for (const child of Object.values(item)) stack.push([child, depth + 1])
  }
  return false
}

/**
 * An id names the case's cassette folder (`dir/<id>`): letters, digits, _ . -, and never `.` or
 * `..` (or any id of dots only), which would name the folder itself or its parent.
 */
const isCaseId = (id: unknown): id is string =>
  typeof id === 'string' && /^[\w.-]{1,100}$/.test(id) && !/^\.+$/.test(id)

/** A case's id: its own, or a hash of its input (stable across runs, so baselines and cassettes find it). */
export const caseId = (input: unknown): string =>
  `case-${createHash('sha256').update(canonicalJson(input)).digest('hex').slice(0, 12)}`

/**
 * The cases of an array or a JSONL file. Every case is checked here, before any task runs: a
 * malformed line or case fails `invalid_options` naming its line (or index); ids must be unique.
 */
export async function loadCases<I, E>(data: EvalCase<I, E>[] | string): Promise<LoadedCase<I, E>[]> {
  let cases: { value: unknown; where: string }[]
  if (typeof data === 'string') {
    let text: string
    try {
      text = await readFile(data, 'utf8')
    } catch (error) {
      throw new NestorError(
        'invalid_options',
        `evaluate: cannot read the dataset ${pathNote(data)}: ${(error as Error).message}`,
      )
    }
    cases = []
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return
      const where = `${data}:${i + 1}`
      try {
        cases.push({ value: JSON.parse(line), where })
      } catch (error) {
        throw new NestorError(
          'invalid_options',
          `evaluate: line ${i + 1} of ${data} is not JSON: ${(error as Error).message}`,
        )
      }
    })
  } else if (Array.isArray(data)) {
    cases = data.map((value, i) => ({ value, where: `data[${i}]` }))
  } else {
    throw new NestorError('invalid_options', 'evaluate: data must be an array of cases or the path of a JSONL file')
  }
  const seen = new Set<string>()
  return cases.map(({ value, where }) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !('input' in value))
      throw new NestorError(
        'invalid_options',
        `evaluate: ${where} is not a case: expected an object { input, expected?, metadata? }`,
      )
    if (tooDeep(value))
      throw new NestorError('invalid_options', `evaluate: ${where} nests deeper than ${MAX_DEPTH} levels`)
    const unknown = Object.keys(value).filter((k) => !CASE_KEYS.has(k))
    if (unknown.length > 0)
      throw new NestorError(
        'invalid_options',
        `evaluate: ${where} has unknown key ${unknown.join(', ')} (a case has id, input, expected, metadata)`,
      )
    const c = value as EvalCase<I, E>
    if (c.id !== undefined && !isCaseId(c.id))
      throw new NestorError(
        'invalid_options',
        `evaluate: ${where} has an id that is not 1-100 letters, digits, _ . - (and not dots only)`,
      )
    const id = c.id ?? caseId(c.input)
    if (seen.has(id)) throw new NestorError('invalid_options', `evaluate: ${where} repeats case id ${id}`)
    seen.add(id)
    return { ...c, id }
  })
}
