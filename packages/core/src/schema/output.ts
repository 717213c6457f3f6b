import { NestorError, invalidOption } from '../contract/errors.js'
import { parsePartialJson } from '../base/partial-json.js'
import { compileSchema, type CompiledSchema, type SchemaInput } from './schema.js'
import type { AssistantMessage, OutputSpec, UserMessage } from '../contract/types.js'

/**
 * Typed output of one exec: the schema the final answer must match, what the provider is told,
 * the retries left for answers that do not match, and the partial value of the answer streaming.
 */
export class OutputGate {
  readonly spec: OutputSpec
  private readonly schema: CompiledSchema
  private retriesLeft: number
  private streamed = ''
  private lastPartial: string | undefined

  /** `name` is what APIs that name a schema get: 'choice' for `choices`, whose result gets `choice`. */
  constructor(input: SchemaInput, retries: number, name: 'output' | 'choice' = 'output') {
    this.schema = compileSchema(input)
    if (this.schema.json.type !== 'object') {
      // Every API with native structured output wants an object at the root; one rule for all.
      throw invalidOption(
        'output',
        'a schema of a JSON object (wrap an array or a scalar in an object)',
        this.schema.json.type ?? 'a schema without type object',
      )
    }
    this.spec = { name, schema: this.schema.json }
    this.retriesLeft = retries
  }

  /** A new assistant message starts streaming: its partial value starts from nothing. */
  startMessage(): void {
    this.streamed = ''
    this.lastPartial = undefined
  }

  /** Text that streamed; returns the new best-effort partial value when it changed. */
  partial(text: string): { partial: unknown } | undefined {
    this.streamed += text
    const value = parsePartialJson(this.streamed)
    if (value === undefined) return undefined
    const key = JSON.stringify(value)
    if (key === this.lastPartial) return undefined
    this.lastPartial = key
    return { partial: value }
  }

  /** Judges a final answer: its value, a message sending the issues back, or the exec's failure. */
  judge(message: AssistantMessage, text: string): Verdict {
    if (message.refusal !== undefined) return { kind: 'fail', error: refusalError(message, text) }
    const parsed = parseAnswer(text)
    const checked = parsed.ok ? this.schema.validate(parsed.value) : parsed
    if (checked.ok) return { kind: 'ok', value: checked.value }
    if (this.retriesLeft > 0) {
      this.retriesLeft--
      return { kind: 'retry', message: issuesMessage(checked.issues) }
    }
    const error = new NestorError(
      'invalid_output',
      `the final answer does not match the output schema: ${checked.issues.join('; ')}`,
      { issues: checked.issues, text },
    )
    return { kind: 'fail', error }
  }
}

export type Verdict =
  { kind: 'ok'; value: unknown } | { kind: 'retry'; message: UserMessage } | { kind: 'fail'; error: NestorError }

function parseAnswer(text: string): { ok: true; value: unknown } | { ok: false; issues: string[] } {
  // Models told the schema in their instructions sometimes fence the JSON: accept that.
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text)
  try {
    return { ok: true, value: JSON.parse(fenced ? fenced[1]! : text) as unknown }
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    return {
      ok: false,
      issues: [
        text.trim() === ''
          ? '(root): the answer is empty, expected JSON'
          : `(root): the answer is not valid JSON (${why})`,
      ],
    }
  }
}

function issuesMessage(issues: string[]): UserMessage {
  const list = issues.map((issue) => `- ${issue}`).join('\n')
  return {
    role: 'user',
    content: `Your answer does not match the required output schema:\n${list}\nAnswer again with only the JSON value, matching the schema.`,
  }
}

/** A refusal ends an exec as `refusal`, whether or not it asked for typed output. */
export const refusalError = (message: AssistantMessage, text: string): NestorError =>
  new NestorError('refusal', `the model refused to answer: ${message.refusal || 'no reason given'}`, {
    provider: message.provider,
    text,
  })
