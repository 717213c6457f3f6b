import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js'
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js'
import { invalidOption } from '@nestor/core/integration-kit'
import type { McpResource, McpResourceBody, McpResourceTemplate, McpStaticResource } from './serve-types.js'

/** The MCP error code for a URI no resource answers (the specification's "Resource not found"). */
const RESOURCE_NOT_FOUND = -32002
/** URIs one session may watch at once: a client cannot grow the server's memory without end. */
const MAX_SUBSCRIPTIONS = 1000

type Template = { spec: McpResourceTemplate; template: UriTemplate }
type Found = { read: () => McpResourceBody | Promise<McpResourceBody>; mimeType: string | undefined }

/** The served resources, checked once: unique URIs, templates that parse. */
export class ResourceCatalog {
  readonly statics = new Map<string, McpStaticResource>()
  readonly templates: Template[] = []

  constructor(resources: McpResource[]) {
    for (const r of resources) {
      if ('uriTemplate' in r) {
        let template: UriTemplate
        try {
          template = new UriTemplate(r.uriTemplate)
        } catch {
          throw invalidOption('resources', 'an RFC 6570 uriTemplate', r.uriTemplate)
        }
        this.templates.push({ spec: r, template })
      } else {
        if (this.statics.has(r.uri)) throw invalidOption('resources', 'unique resource URIs', r.uri)
        this.statics.set(r.uri, r)
      }
    }
  }

  get empty(): boolean {
    return this.statics.size === 0 && this.templates.length === 0
  }

  /** A fixed URI first, then the first template that matches; undefined when none does. */
  find(uri: string): Found | undefined {
    const fixed = this.statics.get(uri)
    if (fixed) return { read: () => fixed.read(new URL(uri)), mimeType: fixed.mimeType }
    for (const { spec, template } of this.templates) {
      const match = template.match(uri)
      if (!match) continue
      const variables = Object.fromEntries(
        Object.entries(match).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
      )
      return { read: () => spec.read(new URL(uri), variables), mimeType: spec.mimeType }
    }
    return undefined
  }

  template(uriTemplate: string): McpResourceTemplate | undefined {
    return this.templates.find((t) => t.spec.uriTemplate === uriTemplate)?.spec
  }
}

/**
 * The sessions watching resources, so `resourceUpdated(uri)` reaches every client that
 * subscribed to that URI (each HTTP session has its own server and its own subscriptions).
 */
export class ResourceWatchers {
  readonly #sessions = new Map<Server, Set<string>>()

  add(server: Server): Set<string> {
    const watched = new Set<string>()
    this.#sessions.set(server, watched)
    return watched
  }

  remove(server: Server): void {
    this.#sessions.delete(server)
  }

  async updated(uri: string): Promise<void> {
    const sends = [...this.#sessions]
      .filter(([, watched]) => watched.has(uri))
      .map(([server]) => server.sendResourceUpdated({ uri }).catch(() => undefined))
    await Promise.all(sends)
  }
}

/** Answers list, templates/list, read, subscribe and unsubscribe on one session's server. */
export function serveResources(server: Server, catalog: ResourceCatalog, watchers: ResourceWatchers): void {
  const info = (r: McpResource) => ({
    name: r.name,
    ...(r.title !== undefined && { title: r.title }),
    ...(r.description !== undefined && { description: r.description }),
    ...(r.mimeType !== undefined && { mimeType: r.mimeType }),
  })
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [...catalog.statics.values()].map((r) => ({ uri: r.uri, ...info(r) })),
  }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: catalog.templates.map(({ spec }) => ({ uriTemplate: spec.uriTemplate, ...info(spec) })),
  }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const { uri } = request.params
    const found = known(catalog, uri)
    return { contents: [contentsOf(uri, await found.read(), found.mimeType)] }
  })
  const watched = watchers.add(server)
  const previous = server.onclose
  server.onclose = () => {
    watchers.remove(server)
    previous?.()
  }
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    const { uri } = request.params
    known(catalog, uri)
    if (!watched.has(uri) && watched.size >= MAX_SUBSCRIPTIONS)
      throw new McpError(ErrorCode.InvalidParams, `too many subscriptions: at most ${MAX_SUBSCRIPTIONS} per session`)
    watched.add(uri)
    return {}
  })
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    watched.delete(request.params.uri)
    return {}
  })
}

function known(catalog: ResourceCatalog, uri: string): Found {
  const found = URL.canParse(uri) ? catalog.find(uri) : undefined
  if (!found) throw new McpError(RESOURCE_NOT_FOUND, `resource not found: ${uri}`, { uri })
  return found
}

type Contents = ReadResourceResult['contents'][number]

function contentsOf(uri: string, body: McpResourceBody, fallbackMime: string | undefined): Contents {
  const mime = (m: string | undefined) => (m ?? fallbackMime) !== undefined && { mimeType: (m ?? fallbackMime)! }
  if (typeof body === 'string') return { uri, ...mime(undefined), text: body }
  if (body instanceof Uint8Array) return { uri, ...mime(undefined), blob: Buffer.from(body).toString('base64') }
  if ('text' in body && typeof body.text === 'string') return { uri, ...mime(body.mimeType), text: body.text }
  if ('blob' in body && typeof body.blob === 'string') return { uri, ...mime(body.mimeType), blob: body.blob }
  throw new McpError(ErrorCode.InternalError, `resource ${uri} read neither text nor a blob`)
}
