import { NestorError, type InputRequest, type PendingInput } from '@nestor/core'
import { compileSchema } from '@nestor/core/integration-kit'

/** What answering a question came to: taken, or refused with the schema's issues (the question still waits). */
export type Answered = { ok: true } | { ok: false; issues: string[] }

type Question = { request: InputRequest; give: (value: unknown) => void; check: (value: unknown) => Answered }

/**
 * The questions an ApprovalGate holds for HTTP answers, keyed by root exec id and input id. A
 * question leaves when it is answered, when its wait times out (the asking call gets
 * `input_unavailable`) or when the call stops waiting (its signal: the run ended or was aborted).
 */
export class InputDesk {
  private readonly questions = new Map<string, Question>()

  constructor(private readonly timeoutMs: number | undefined) {}

  ask(request: InputRequest): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const key = keyOf(rootOf(request), request.id)
      const schema = compileSchema(request.schema)
      let timer: ReturnType<typeof setTimeout> | undefined
      const leave = () => {
        if (this.questions.get(key) !== question) return false
        this.questions.delete(key)
        clearTimeout(timer)
        stop()
        return true
      }
      const question: Question = {
        request,
        give: (value) => leave() && resolve(value),
        check: (value) => {
          const checked = schema.validate(value)
          return checked.ok ? { ok: true } : { ok: false, issues: checked.issues }
        },
      }
      this.questions.set(key, question)
      const signal = request.signal
      const withdrawn = () => leave() && reject(new NestorError('aborted', 'the question was withdrawn'))
      signal?.addEventListener('abort', withdrawn, { once: true })
      const stop = () => signal?.removeEventListener('abort', withdrawn)
      if (signal?.aborted) withdrawn()
      if (this.timeoutMs !== undefined) {
        timer = setTimeout(
          () => leave() && reject(new NestorError('input_unavailable', 'no answer came in time')),
          this.timeoutMs,
        )
        timer.unref?.()
      }
    })
  }

  waiting(rootExecId: string): PendingInput[] {
    return [...this.questions.values()]
      .filter((q) => rootOf(q.request) === rootExecId)
      .map(({ request: { id, toolCallId, path, question, schema } }) => ({ id, toolCallId, path, question, schema }))
  }

  answer(rootExecId: string, id: string, value: unknown): Answered | undefined {
    const question = this.questions.get(keyOf(rootExecId, id))
    if (!question) return undefined
    const checked = question.check(value)
    if (checked.ok) question.give(value)
    return checked
  }
}

const rootOf = (request: InputRequest) => request.path[0] ?? request.execId
const keyOf = (rootExecId: string, id: string) => `${rootExecId}\u0000${id}`
