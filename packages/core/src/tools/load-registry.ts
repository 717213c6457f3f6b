import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import * as nodeModule from 'node:module'
import { dirname, extname, isAbsolute, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { NestorError, messageOf } from '../contract/errors.js'
import type { Tool } from '../contract/types.js'
import { schemaProblem } from '../schema/json-schema-shape.js'
import { checkManifest } from './manifest.js'
import type { CheckedOwner, ToolDeclaration } from './manifest-types.js'
import { DeclaredRegistry, type DeclaredOwner } from './declared-registry.js'
import { globMatch } from './registry.js'
import { checkToolName, defineTool } from './tool.js'
import { compileControl } from './tool-control.js'

/**
 * Reads a JSON or YAML manifest of owners and their tools (Nestor's list form or the seed's maps
 * keyed by id), checks every rule, and only then imports the callables and checks their exports.
 * Any problem fails the whole load: one `invalid_options` listing every problem (also in
 * `error.issues`), each naming its owner, tool and field.
 */
export async function loadRegistry(file: string | URL): Promise<DeclaredRegistry> {
  const path = typeof file === 'string' ? resolve(file) : fileURLToPath(file)
  const { problems, owners } = checkManifest(await readManifest(path))
  const names = uniqueNames(owners, problems)
  const planned = owners.flatMap((owner) => owner.tools.map((tool) => planTool(path, owner, tool, problems)))
  for (const owner of owners) {
    for (const name of owner.allowedTools ?? []) {
      const known = name.includes('*') ? names.some((n) => globMatch(name, n)) : names.includes(name)
      if (!known)
        problems.push(`${owner.label}, ${owner.spelling.allowedTools}: ${name} is not a tool of this manifest`)
    }
  }
  // A manifest that fails any other check runs no module's code.
  if (problems.length)
    throw failure(
      path,
      problems,
      planned.length ? 'no callable was imported: they are checked once all else passes' : undefined,
    )

  // Imported together: one missing export does not hide the others'. Reported in manifest order.
  const bound = await Promise.all(planned.map(async (plan) => (plan ? bindCallable(plan) : undefined)))
  for (const problem of bound) if (problem) problems.push(problem)
  if (problems.length) throw failure(path, problems)

  // Nothing is kept unless everything checked out: the registry is made only now.
  const tools = new Map<string, Tool>()
  for (const plan of planned) if (plan) tools.set(plan.tool.spec.name, plan.tool)
  const declared = new Map<string, DeclaredOwner>()
  for (const owner of owners) {
    declared.set(
      owner.id,
      Object.freeze({
        id: owner.id,
        kind: owner.kind,
        tools: Object.freeze([...owner.names]),
        allowedTools: Object.freeze([...(owner.allowedTools ?? owner.names)]),
        ...(owner.maxToolCalls !== undefined && { maxToolCalls: owner.maxToolCalls }),
        ...(owner.toolTimeoutMs !== undefined && { toolTimeoutMs: owner.toolTimeoutMs }),
      }),
    )
  }
  return new DeclaredRegistry(tools, declared)
}

/** Adds a problem per repeated owner id or tool name; returns every tool name declared. */
function uniqueNames(owners: readonly CheckedOwner[], problems: string[]): string[] {
  const ids = new Map<string, string>()
  const names = new Map<string, string>()
  for (const owner of owners) {
    if (owner.id && ids.has(owner.id))
      problems.push(`${owner.label}, field id: duplicate owner id (at ${ids.get(owner.id)} and ${owner.at})`)
    else if (owner.id) ids.set(owner.id, owner.at)
    for (const name of owner.names) {
      const first = names.get(name)
      if (first)
        problems.push(`${owner.label}, tool ${name}, ${owner.spelling.name}: duplicate tool name (also in ${first})`)
      else names.set(name, `${owner.label} (${owner.at})`)
    }
  }
  return [...names.keys()]
}

async function readManifest(path: string): Promise<unknown> {
  const ext = extname(path).toLowerCase()
  if (ext !== '.json' && ext !== '.yaml' && ext !== '.yml')
    throw failure(path, [`file: expected a .json, .yaml or .yml manifest, got ${ext || 'no extension'}`])
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw failure(path, [`file: cannot be read (${messageOf(error)})`])
  }
  try {
    if (ext === '.json') return JSON.parse(text) as unknown
    // The YAML parser is loaded only for a YAML manifest: importing core never loads it.
    const { parse } = await import('yaml')
    return parse(text, { uniqueKeys: true }) as unknown
  } catch (error) {
    throw failure(path, [`file: not valid ${ext === '.json' ? 'JSON' : 'YAML'} (${messageOf(error)})`])
  }
}

/** A tool whose callable is still to import: where from, and the slot its body fills. */
type Plan = { tool: Tool; url: string; specifier: string; exportName: string; where: string; body: { fn?: Callable } }
type Callable = (args: unknown, ctx: unknown) => unknown

/** A tool from its declaration, checked whole but its module not imported; undefined with its problems added. */
function planTool(
  manifestPath: string,
  owner: CheckedOwner,
  decl: ToolDeclaration,
  problems: string[],
): Plan | undefined {
  const where = `${owner.label}, tool ${decl.name}`
  const spelt = owner.spelling
  const before = problems.length
  try {
    checkToolName(decl.name)
  } catch (error) {
    problems.push(`${where}, ${spelt.name}: ${messageOf(error)}`)
  }
  for (const field of ['inputSchema', 'outputSchema'] as const) {
    const schema = decl[field]
    const problem = schema === undefined ? undefined : schemaProblem(schema)
    if (problem) problems.push(`${where}, ${spelt[field]}: invalid JSON Schema: ${problem}`)
  }
  const root = decl.inputSchema?.type
  if (root !== undefined && root !== 'object')
    problems.push(`${where}, ${spelt.inputSchema}: the root must be an object schema, got type ${JSON.stringify(root)}`)
  if (decl.control !== undefined) {
    try {
      compileControl(decl.name, decl.control)
    } catch (error) {
      problems.push(`${where}, ${spelt.control}: ${messageOf(error)}`)
    }
  }
  const [specifier, exportName] = decl.callable.split('#') as [string, string]
  const url = moduleLocation(manifestPath, specifier, `${where}, field callable`, problems)
  if (url === undefined || problems.length > before) return undefined
  const body: Plan['body'] = {}
  try {
    const tool = defineTool({
      name: decl.name,
      description: decl.description,
      parameters: decl.inputSchema ?? { type: 'object', properties: {} },
      // Bound once every check has passed and the module is imported (bindCallable).
      execute: (args, ctx) => body.fn!(args, ctx) as unknown,
      ...(decl.outputSchema && { output: decl.outputSchema }),
      ...(decl.cacheable !== undefined && { cacheable: decl.cacheable }),
      ...(decl.needsApproval !== undefined && { needsApproval: decl.needsApproval }),
      ...(decl.control !== undefined && { control: decl.control }),
    })
    return { tool, url, specifier, exportName, where: `${where}, field callable`, body }
  } catch (error) {
    // What defineTool refuses beyond the checks above: a root that is a union.
    problems.push(`${where}, ${spelt.inputSchema}: ${messageOf(error)}`)
    return undefined
  }
}

/** The module's URL when it exists, else undefined with a problem added. Runs none of its code. */
function moduleLocation(
  manifestPath: string,
  specifier: string,
  where: string,
  problems: string[],
): string | undefined {
  let url: string
  try {
    url = moduleUrl(manifestPath, specifier)
  } catch {
    problems.push(`${where}: module ${specifier} not found (from ${dirname(manifestPath)})`)
    return undefined
  }
  if (!existsSync(new URL(url))) {
    problems.push(`${where}: module ${specifier} not found (${fileURLToPath(url)})`)
    return undefined
  }
  return url
}

/** Imports the plan's module and binds its export as the tool's body; the problem when it cannot. */
async function bindCallable({ url, specifier, exportName: name, where, body }: Plan): Promise<string | undefined> {
  let module: Record<string, unknown>
  try {
    // The app's own module, found at run time: a bundler must leave this import to Node.
    module = (await import(/* webpackIgnore: true */ /* @vite-ignore */ url)) as Record<string, unknown>
  } catch (error) {
    return `${where}: module ${specifier} failed to load (${messageOf(error)})`
  }
  if (!Object.hasOwn(module, name)) return `${where}: module ${specifier} has no export ${name}`
  const fn = module[name]
  if (typeof fn !== 'function')
    return `${where}: export ${name} of ${specifier} is not a function (typeof ${typeOf(fn)})`
  body.fn = fn as Callable
  return undefined
}

/** Paths are relative to the manifest file; a package name resolves from the manifest's folder. */
function moduleUrl(manifestPath: string, specifier: string): string {
  if (specifier.startsWith('file:')) return specifier
  if (specifier.startsWith('.') || isAbsolute(specifier))
    return pathToFileURL(resolve(dirname(manifestPath), specifier)).href
  // Through the namespace: webpack would take a bare createRequire for a dependency of the bundle.
  return pathToFileURL(nodeModule.createRequire(manifestPath).resolve(specifier)).href
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)

function failure(path: string, problems: string[], note?: string): NestorError {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`
  return new NestorError(
    'invalid_options',
    `invalid registry manifest ${path}: ${count}${note ? ` (${note})` : ''}\n${problems.map((p) => `- ${p}`).join('\n')}`,
    { issues: problems },
  )
}
