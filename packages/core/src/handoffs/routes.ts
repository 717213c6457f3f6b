import { invalidOption } from '../contract/errors.js'
import {
  agentProfile,
  type AgentProfile,
  type HandoffAgent,
  type HandoffInfo,
  type HandoffOptions,
  type HandoffTarget,
  type InputFilter,
} from '../contract/handoff-types.js'
import type { Tool } from '../contract/types.js'
import { OutputGate } from '../schema/output.js'
import type { SchemaInput } from '../schema/schema.js'
import { normalizeTools } from '../tools/tool.js'

/** One agent the conversation can be handed to, resolved once when the exec opens. */
export type Route = {
  name: string
  /** `transfer_to_<name>`: what the model calls. */
  toolName: string
  description: string
  profile: AgentProfile
  /** The agent's own tools, normalized. */
  tools: Tool[]
  output?: OutputGate
  inputFilter?: InputFilter
  onHandoff?: (info: HandoffInfo) => void | Promise<void>
  /** Where the agent may hand the conversation on to (filled after it, so loops resolve). */
  next: Route[]
}

/** Every agent an exec's handoffs reach, by name, and the ones it offers first. */
export type Routes = { first: Route[]; byName: Map<string, Route> }

// Provider tool names allow [a-zA-Z0-9_-] up to 64 characters; `transfer_to_` takes 12.
const NAME = /^[a-zA-Z0-9_-]{1,52}$/

/**
 * Resolves `handoffs` and every agent they reach. Throws `invalid_options` for what is not an
 * agent, a bad or duplicate name, or one name for two agents (a resume finds agents by name).
 */
export function resolveRoutes(targets: readonly unknown[]): Routes {
  const byName = new Map<string, Route>()
  const seen = new Map<unknown, Route>()
  const agents = new Map<string, HandoffAgent>()
  const resolve = (list: readonly unknown[], where: string): Route[] => {
    const routes: Route[] = []
    const names = new Set<string>()
    for (const [i, target] of list.entries()) {
      const known = seen.get(target)
      const route = known ?? routeOf(target, `${where}.${i}`)
      if (names.has(route.name)) throw invalidOption(where, 'targets with distinct names', route.name)
      names.add(route.name)
      routes.push(route)
      if (known) continue
      seen.set(target, route)
      const agent = agentOf(target) as HandoffAgent
      const other = agents.get(route.name)
      if (other && other !== agent) throw invalidOption(where, 'one agent per handoff name', route.name)
      agents.set(route.name, agent)
      if (!byName.has(route.name)) byName.set(route.name, route)
      route.next = resolve(route.profile.handoffs ?? [], `handoffs of ${route.name}`)
    }
    return routes
  }
  return { first: resolve(targets, 'handoffs'), byName }
}

function routeOf(target: unknown, where: string): Route {
  const agent = agentOf(target)
  if (!agent) throw invalidOption(where, 'an Agent or handoff(agent, options)', target)
  const profile = agent[agentProfile]()
  const options: HandoffOptions = agent === target ? {} : (target as Exclude<HandoffTarget, HandoffAgent>)
  const name = options.name ?? profile.name
  if (typeof name !== 'string' || !NAME.test(name))
    throw invalidOption(`${where}.name`, 'letters, digits, _ or -, at most 52', name)
  const about = profile.description ? `: ${profile.description}` : ''
  const route: Route = {
    name,
    toolName: `transfer_to_${name}`,
    description: options.description ?? `Hand the conversation to ${name}, who answers from then on${about}`,
    profile,
    tools: normalizeTools(profile.tools),
    next: [],
  }
  // Compiled here: a schema that cannot be an output fails before anything runs.
  if (profile.output !== undefined) route.output = new OutputGate(profile.output as SchemaInput, 2)
  if (options.inputFilter) route.inputFilter = options.inputFilter
  if (options.onHandoff) route.onHandoff = options.onHandoff
  return route
}

function agentOf(target: unknown): HandoffAgent | undefined {
  const isAgent = (v: unknown): v is HandoffAgent =>
    typeof v === 'object' && v !== null && typeof (v as Partial<HandoffAgent>)[agentProfile] === 'function'
  if (isAgent(target)) return target
  if (typeof target === 'object' && target !== null && (target as { kind?: unknown }).kind === 'handoff') {
    const agent = (target as { agent?: unknown }).agent
    if (isAgent(agent)) return agent
  }
  return undefined
}
