import { defineTool, registry, type SchemaInput, type Tool, type ToolContext } from '@nestor/core'
import { toolSource } from '@nestor/core/integration-kit'
import type { AgentToolOptions } from './tool-options.js'

export type Impl = (this: unknown, args: never, ctx: ToolContext) => unknown

// Each object's tools by property key, in declaration order (base class first). A WeakMap, not a
// field, so decorated methods work on any class, not only on Agent subclasses.
const tables = new WeakMap<object, Map<PropertyKey, Tool>>()

// The declaration (its options object) each registered tool came from: a later instance of the
// same declaration takes its place in the registry; another tool of that name is a clash.
const declarationOf = new WeakMap<Tool, AgentToolOptions>()

/**
 * The implementation an instance method resolves to: looked up through the prototype chain, not
 * taken from the decorated value, so a subclass override wins as it would for a plain call. Own
 * properties are skipped: they are bound copies made by an earlier (base class) declaration.
 */
export function resolveMethod(instance: object, key: PropertyKey, fallback: Impl): Impl {
  const found = Reflect.get(Object.getPrototypeOf(instance) as object, key, instance) as unknown
  return typeof found === 'function' ? (found as Impl) : fallback
}

/** The tools bound to `owner` (an instance, or a class for static methods), in declaration order. */
export function toolsOf(owner: object): Tool[] {
  return [...(tables.get(owner)?.values() ?? [])]
}

/**
 * Turns one method of `owner` into a Tool whose body runs with `this === owner`, and replaces the
 * method on `owner` with a bound copy that carries the core `toolSource` protocol, so
 * `exec({ tools: [this.search] })` expands to exactly this tool of exactly this instance.
 */
export function bindMethodTool(
  owner: object,
  key: string | symbol,
  impl: Impl,
  options: AgentToolOptions,
  replace: boolean,
): Tool {
  const name = options.name ?? (typeof key === 'string' ? key : undefined)
  if (name === undefined) throw new TypeError('@tool on a symbol-named method needs options.name')
  // Every defineTool option passes as given (an unset one stays unset); name and body are the method's.
  const { name: _name, register: _register, ...given } = options
  const shared = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined))
  const tool = defineTool({
    ...(shared as typeof given),
    name,
    parameters: options.parameters as SchemaInput,
    execute: (args, ctx) => impl.call(owner, args as never, ctx),
  }) as Tool

  let table = tables.get(owner)
  if (!table) tables.set(owner, (table = new Map()))
  table.set(key, tool)

  if (replace) {
    const bound = impl.bind(owner) as Impl & { [toolSource]?: () => Tool[] }
    Object.defineProperty(bound, toolSource, { value: () => [tool] })
    Object.defineProperty(bound, 'name', { value: name })
    Object.defineProperty(owner, key, { value: bound, writable: true, configurable: true, enumerable: false })
  }
  if (options.register) {
    const current = registry.get(name)
    if (current && declarationOf.get(current) === options) registry.replace(tool)
    else registry.add(tool)
    declarationOf.set(tool, options)
  }
  return tool
}
