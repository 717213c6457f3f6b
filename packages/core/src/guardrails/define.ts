import { NestorError, invalidOption } from '../contract/errors.js'
import type { Guardrail, GuardrailOptions, TextGuardrail, ToolGuardrail } from '../contract/guardrail-types.js'
import type { GuardrailSet } from '../exec/context.js'

const KINDS = ['input', 'output', 'tools'] as const

/**
 * A guardrail, checked now: a text guardrail has `check(text, ctx)`, a tool guardrail `before`
 * and/or `after`. A bad definition is `invalid_options` here, not a surprise mid-run.
 */
export function defineGuardrail<G extends TextGuardrail | ToolGuardrail>(guardrail: G): G {
  checkGuardrail(guardrail, 'guardrail')
  return guardrail
}

function checkGuardrail(g: unknown, where: string): asserts g is Guardrail {
  if (typeof g !== 'object' || g === null) throw invalidOption(where, 'a guardrail (defineGuardrail)', g)
  const r = g as Record<string, unknown>
  if (typeof r.name !== 'string' || r.name.length === 0)
    throw invalidOption(`${where}.name`, 'a non-empty string', r.name)
  const hooks = ['check', 'before', 'after'].filter((k) => r[k] !== undefined)
  if (hooks.length === 0 || hooks.some((k) => typeof r[k] !== 'function'))
    throw invalidOption(`${where} ${r.name}`, 'a check(text, ctx) function, or before and/or after functions', hooks)
  if (r.check !== undefined && hooks.length > 1)
    throw invalidOption(`${where} ${r.name}`, 'check (input, output) or before/after (tools), not both', hooks)
  if (r.mode !== undefined && r.mode !== 'parallel' && r.mode !== 'blocking')
    throw invalidOption(`${where} ${r.name}.mode`, "'parallel' or 'blocking'", r.mode)
  const t = r.timeoutMs
  if (t !== undefined && (typeof t !== 'number' || !(t > 0)))
    throw invalidOption(`${where} ${r.name}.timeoutMs`, 'a number of milliseconds > 0', t)
  for (const flag of ['failOpen', 'inherit'])
    if (r[flag] !== undefined && typeof r[flag] !== 'boolean')
      throw invalidOption(`${where} ${r.name}.${flag}`, 'a boolean', r[flag])
}

/**
 * Options objects found good: an app passes the same `guardrails` object to exec after exec, so
 * each is checked once (lists are read, not copied: change one by passing a new object).
 */
const checked = new WeakSet<object>()

/** A `guardrails` option checked whole: lists of guardrails of the right kind, names unique. */
export function checkGuardrailOptions(options: GuardrailOptions, where: string): void {
  if (typeof options === 'object' && options !== null && checked.has(options)) return
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw invalidOption(where, '{ input?, output?, tools? }', options)
  for (const key of Object.keys(options))
    if (!(KINDS as readonly string[]).includes(key))
      throw invalidOption(`${where}.${key}`, 'one of input, output, tools', key)
  for (const kind of KINDS) {
    const list: unknown = options[kind]
    if (list === undefined) continue
    if (!Array.isArray(list)) throw invalidOption(`${where}.${kind}`, 'an array of guardrails', list)
    for (const [i, g] of list.entries()) {
      checkGuardrail(g, `${where}.${kind}[${i}]`)
      const text = 'check' in g && typeof g.check === 'function'
      if (text !== (kind !== 'tools'))
        throw invalidOption(
          `${where}.${kind}[${i}]`,
          kind === 'tools' ? 'a tool guardrail (before/after)' : 'a text guardrail (check)',
          g.name,
        )
    }
  }
  guardrailSetOf(undefined, undefined, options)
  checked.add(options)
}

/** A root's set, per its own options (or its runtime's when it has none): resolved once. */
const rootSets = new WeakMap<
  GuardrailOptions,
  { runtime: GuardrailOptions | undefined; set: GuardrailSet | undefined }
>()

/**
 * The guardrails an exec opened by `host` runs with. Nestor's own nested steps (a context
 * summary, a classifier's question) run none: a guardrail must not guard its own classifier.
 */
export function execGuardrails(
  runtime: GuardrailOptions | undefined,
  own: GuardrailOptions | undefined,
  parent: { readonly env: { readonly host: unknown; readonly guardrails?: GuardrailSet } } | undefined,
  host: unknown,
  ownStep = false,
): GuardrailSet | undefined {
  if (own !== undefined) checkGuardrailOptions(own, 'guardrails')
  if (ownStep) return undefined
  const key = own ?? runtime
  if (parent || !key)
    return guardrailSetOf(parent?.env.guardrails, parent?.env.host === host ? undefined : runtime, own)
  const cached = rootSets.get(key)
  if (cached && cached.runtime === runtime) return cached.set
  const set = guardrailSetOf(undefined, runtime, own)
  rootSets.set(key, { runtime, set })
  return set
}

/**
 * The guardrails an exec runs with: those its parent passes down (unless `inherit: false`), its
 * runtime's at the root (or when the parent is another runtime's), then its own. The same object
 * twice counts once; two guardrails of one name are `invalid_options`.
 */
export function guardrailSetOf(
  inherited: GuardrailSet | undefined,
  runtime: GuardrailOptions | undefined,
  own: GuardrailOptions | undefined,
): GuardrailSet | undefined {
  if (!inherited && !runtime && !own) return undefined
  const set = { input: [], output: [], tools: [] } as { [K in keyof GuardrailSet]: Guardrail[] }
  const names = new Map<string, Guardrail>()
  const add = (kind: keyof GuardrailSet, g: Guardrail) => {
    const seen = names.get(`${kind}:${g.name}`)
    if (seen === g) return
    if (seen)
      throw new NestorError(
        'invalid_options',
        `invalid option guardrails.${kind}: two guardrails are named ${JSON.stringify(g.name)}; names must be unique`,
      )
    names.set(`${kind}:${g.name}`, g)
    set[kind].push(g)
  }
  for (const kind of KINDS) {
    for (const g of inherited?.[kind] ?? []) if (g.inherit !== false) add(kind, g)
    for (const g of runtime?.[kind] ?? []) add(kind, g)
    for (const g of own?.[kind] ?? []) add(kind, g)
  }
  const any = set.input.length + set.output.length + set.tools.length > 0
  return any ? (set as GuardrailSet) : undefined
}
