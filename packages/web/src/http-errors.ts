/** A JSON error body every control endpoint uses: `{ error: { code, message } }`. */
export function errorResponse(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status })
}

/** The request's JSON object body, or a 400 Response saying what is wrong with it. */
export async function jsonBody(request: Request): Promise<Record<string, unknown> | Response> {
  let text: string
  try {
    text = await request.text()
  } catch {
    return errorResponse(400, 'bad_request', 'the request body could not be read')
  }
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
