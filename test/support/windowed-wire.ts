// What every windowed wire server shares, whatever the provider: a deterministic token count of
// the request it gets (a token per 4 characters of what the framing says the model reads, a
// different rule from Nestor's estimate on purpose), a check that no request breaks a tool call
// from its result, and a research model that reads pages 1..pages, one call per turn, then
// answers (or, asked by Nestor's summarizer, lists the pages it saw). Each provider's module adds
// only its framing: how to read a request body and how to frame a call, an answer and its error.
import type { CapturedRequest, WireResponse } from './wire-server.js'

export const SUMMARIZER_MARK = 'You write the working memory'

/** One message (or item) of a request as the checks see it: its text, the calls it makes and the results it carries. */
export type Turn = { text: string; calls: string[]; results: string[] }
export type Seen = { system?: string; turns: Turn[]; chars: number }

export type Framing = {
  read(body: unknown): Seen
  call(tokens: number, n: number): WireResponse
  answer(tokens: number, text: string): WireResponse
  /** The provider's "too long" error; absent for a server that silently truncates (Ollama). */
  overflow?(limit: number, tokens: number): WireResponse
}

export type WindowLog = {
  /** The token count of each model request, in order, and how many were refused as too long. */
  counted: number[]
  refused: number
  /** Requests that broke a tool call from its result. */
  broken: string[]
  /** The model requests' bodies, in order (the summarizer's included). */
  bodies: unknown[]
}

export type WindowOptions = { limit: number; pages: number }

/** The page a read_page tool returns: its number, then filler of `chars` characters. */
export const page = (n: number, chars: number): string => `PAGE ${n}: ${'lorem ipsum '.repeat(chars / 12)}`

export const tokensOf = (chars: number): number => Math.ceil(chars / 4)

export const emptyLog = (): WindowLog => ({ counted: [], refused: 0, broken: [], bodies: [] })

/** A model request handler enforcing the window; it writes what it saw to `log`. */
export function windowedModel(framing: Framing, options: WindowOptions, log: WindowLog) {
  return (captured: CapturedRequest): WireResponse => {
    const seen = framing.read(captured.json)
    const tokens = tokensOf(seen.chars)
    log.counted.push(tokens)
    log.bodies.push(captured.json)
    const problem = pairingProblem(seen.turns)
    if (problem) log.broken.push(problem)
    if (tokens > options.limit && framing.overflow) {
      log.refused++
      return framing.overflow(options.limit, tokens)
    }
    if (seen.system?.startsWith(SUMMARIZER_MARK))
      return framing.answer(
        tokens,
        `Pages read so far: ${summarized(seen.turns.map((t) => t.text).join()).join(', ')}.`,
      )
    const recent = seen.turns.slice(-3).map((t) => t.text)
    const lastPage = Math.max(0, ...pagesIn(recent.join()))
    if (lastPage >= options.pages) return framing.answer(tokens, `Read all ${options.pages} pages.`)
    return framing.call(tokens, lastPage + 1)
  }
}

/** The pages a transcript shows, with those an earlier summary in it lists (a summary of a summary). */
const summarized = (text: string): number[] => {
  const earlier =
    text
      .match(/Pages read so far: ([\d, ]+)/)?.[1]
      ?.split(', ')
      .map(Number) ?? []
  return [...new Set([...earlier, ...pagesIn(text)])].sort((a, b) => a - b)
}

const pagesIn = (text: string): number[] => [...text.matchAll(/PAGE (\d+):/g)].map((m) => Number(m[1]))

/** Every result answers a call still open, and a turn without results never follows an unanswered call. */
export function pairingProblem(turns: Turn[]): string | undefined {
  const open = new Set<string>()
  for (const [index, turn] of turns.entries()) {
    if (turn.results.length > 0) {
      for (const id of turn.results) if (!open.delete(id)) return `turn ${index} answers an unknown call ${id}`
    } else if (open.size > 0) return `a call has no result before turn ${index}`
    for (const id of turn.calls) open.add(id)
  }
  return open.size > 0 ? 'the request ends with a call unanswered' : undefined
}

/** A message of the request as a Turn: its JSON is the text the page numbers are read from. */
export const turn = (message: unknown, calls: string[] = [], results: string[] = []): Turn => ({
  text: JSON.stringify(message),
  calls,
  results,
})
