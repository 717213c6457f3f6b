/** A JSON error body every endpoint uses: `{ error: { code, message } }`. */
export function errorResponse(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status })
}

/** Bodies over this many bytes answer 413 unless an endpoint says otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 1 << 20

/**
 * The request's JSON object body, or the 4xx Response saying what is wrong with it. Only a JSON
 * content type is accepted (415 otherwise): a page on another origin can send a `text/plain` or
 * form POST without a preflight, never an `application/json` one, so this refuses cross-site
 * forms before anything runs. The body is read up to `maxBytes` (413 beyond), never further.
 */
export async function jsonBody(
  request: Request,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
): Promise<Record<string, unknown> | Response> {
  if (!isJsonType(request.headers.get('content-type')))
    return errorResponse(415, 'unsupported_media_type', 'send the body as JSON, with content-type: application/json')
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > maxBytes) return tooLarge(maxBytes)
  const text = await boundedText(request, maxBytes)
  if (text instanceof Response) return text
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return errorResponse(
      400,
      'bad_json',
      `the body is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return errorResponse(400, 'bad_request', 'the body must be a JSON object')
  return value as Record<string, unknown>
}

/** `application/json` or any `+json` type, parameters (charset) allowed. */
function isJsonType(header: string | null): boolean {
  const type = (header ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type)
}

async function boundedText(request: Request, maxBytes: number): Promise<string | Response> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const decoder = new TextDecoder()
  let size = 0
  let text = ''
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return text + decoder.decode()
      size += value.byteLength
      if (size > maxBytes) {
        void reader.cancel().catch(() => {})
        return tooLarge(maxBytes)
      }
      text += decoder.decode(value, { stream: true })
    }
  } catch {
    return errorResponse(400, 'bad_request', 'the request body could not be read')
  }
}

const tooLarge = (maxBytes: number) => errorResponse(413, 'too_large', `request body over ${maxBytes} bytes`)
