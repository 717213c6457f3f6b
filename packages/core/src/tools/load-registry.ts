import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import * as nodeModule from 'node:module'
import { dirname, extname, isAbsolute, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { NestorError, messageOf } from '../contract/errors.js'
import type { OwnerDefaults } from '../contract/exec-types.js'
import type { Tool } from '../contract/types.js'
import { schemaProblem } from '../schema/json-schema-shape.js'
import { checkManifest, type CheckedOwner, type OwnerKind, type ToolDeclaration } from './manifest.js'
import { globMatch } from './registry.js'
import { checkToolName, defineTool } from './tool.js'

/** An owner of a loaded manifest: its defaults and the tools it declared. */
export type DeclaredOwner = OwnerDefaults & { id: string; kind: OwnerKind; tools: readonly string[] }

/**
 * The tools and owners of a manifest, fixed at load: pass it as a Runtime's `registry`, and
 * `exec(input, { owner })` applies that owner's defaults. It cannot be changed after load, so
 * what was checked stays true.
 */
export class DeclaredRegistry {
  readonly owners: ReadonlyMap<string, DeclaredOwner>
  readonly #tools: ReadonlyMap<string, Tool>

  constructor(tools: ReadonlyMap<string, Tool>, owners: ReadonlyMap<string, DeclaredOwner>) {
    this.#tools = tools
    this.owners = owners
  }
  get(name: string): Tool | undefined {
    return this.#tools.get(name)
  }
  list(): Tool[] {
    return [...this.#tools.values()]
  }
}

/**
 * Reads a JSON or YAML manifest of owners and their tools, imports every callable and checks
 * every rule before anything is returned. Any problem fails the whole load: one `invalid_options`
 * listing every problem (also in `error.issues`), each naming its owner, tool and field.
 */
export async function loadRegistry(file: string | URL): Promise<DeclaredRegistry> {
  const path = typeof file === 'string' ? resolve(file) : fileURLToPath(file)
  const { problems, owners } = checkManifest(await readManifest(path))

  const names = uniqueNames(owners, problems)

  // Imported together: one missing module does not hide the others' problems.
  const located = owners.flatMap((owner) => owner.tools.map((tool) => ({ owner, tool })))
  const built = await Promise.all(
    located.map(async ({ owner, tool }) => {
      const own: string[] = []
      return { tool: await buildTool(path, owner.label, tool, own), problems: own }
    }),
  )
  // Reported in manifest order, however the imports interleave.
  for (const each of built) problems.push(...each.problems)

  for (const owner of owners) {
    for (const name of owner.allowedTools ?? []) {
      const known = name.includes('*') ? names.some((n) => globMatch(name, n)) : names.includes(name)
      if (!known) problems.push(`${owner.label}, field allowedTools: ${name} is not a tool of this manifest`)
    }
  }
  if (problems.length) throw failure(path, problems)

  // Nothing is kept unless everything checked out: the registry is made only now.
  const tools = new Map<string, Tool>()
  for (const { tool } of built) if (tool) tools.set(tool.spec.name, tool)
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
      if (first) problems.push(`${owner.label}, tool ${name}, field name: duplicate tool name (also in ${first})`)
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

/** A tool from its declaration, or undefined with its problems added. */
async function buildTool(
  manifestPath: string,
  owner: string,
  decl: ToolDeclaration,
  problems: string[],
): Promise<Tool | undefined> {
  const where = `${owner}, tool ${decl.name}`
  const before = problems.length
  try {
    checkToolName(decl.name)
  } catch (error) {
    problems.push(`${where}, field name: ${messageOf(error)}`)
  }
  for (const field of ['inputSchema', 'outputSchema'] as const) {
    const schema = decl[field]
    const problem = schema === undefined ? undefined : schemaProblem(schema)
    if (problem) problems.push(`${where}, field ${field}: invalid JSON Schema: ${problem}`)
  }
  const root = decl.inputSchema?.type
  if (root !== undefined && root !== 'object')
    problems.push(`${where}, field inputSchema: the root must be an object schema, got type ${JSON.stringify(root)}`)
  const execute = await resolveCallable(manifestPath, decl.callable, `${where}, field callable`, problems)
  if (!execute || problems.length > before) return undefined
  try {
    return defineTool({
      name: decl.name,
      description: decl.description,
      parameters: decl.inputSchema ?? { type: 'object', properties: {} },
      execute: (args, ctx) => execute(args, ctx) as unknown,
      ...(decl.outputSchema && { output: decl.outputSchema }),
      ...(decl.cacheable !== undefined && { cacheable: decl.cacheable }),
    })
  } catch (error) {
    // What defineTool refuses beyond the checks above: a root that is a union.
    problems.push(`${where}, field inputSchema: ${messageOf(error)}`)
    return undefined
  }
}

type Callable = (args: unknown, ctx: unknown) => unknown

async function resolveCallable(
  manifestPath: string,
  callable: string,
  where: string,
  problems: string[],
): Promise<Callable | undefined> {
  const [specifier, name] = callable.split('#') as [string, string]
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
  let module: Record<string, unknown>
  try {
    // The app's own module, found at run time: a bundler must leave this import to Node.
    module = (await import(/* webpackIgnore: true */ /* @vite-ignore */ url)) as Record<string, unknown>
  } catch (error) {
    problems.push(`${where}: module ${specifier} failed to load (${messageOf(error)})`)
    return undefined
  }
  if (!(name in module)) {
    problems.push(`${where}: module ${specifier} has no export ${name}`)
    return undefined
  }
  const fn = module[name]
  if (typeof fn !== 'function') {
    problems.push(`${where}: export ${name} of ${specifier} is not a function (typeof ${typeOf(fn)})`)
    return undefined
  }
  return fn as Callable
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

function failure(path: string, problems: string[]): NestorError {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`
  return new NestorError(
    'invalid_options',
    `invalid registry manifest ${path}: ${count}\n${problems.map((p) => `- ${p}`).join('\n')}`,
    { issues: problems },
  )
}
