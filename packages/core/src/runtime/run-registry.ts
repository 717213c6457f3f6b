import type { RetentionOptions } from '../contract/exec-types.js'
import { NestorError, invalidOption } from '../contract/errors.js'
import type { EventLog } from '../events/event-log.js'
import type { AgentEvent } from '../contract/event-types.js'
import type { ExecResult } from '../contract/exec-types.js'
import type { UserMessage } from '../contract/types.js'

/** The controls of the live exec a retained run came from (an ExecRun). */
type Controls = {
  steer(message: string | UserMessage): void
  followUp(message: string | UserMessage): void
  abort(reason?: unknown): void
}

/**
 * A root exec kept readable by `runtime.attach`: its event log (the same `EventLog` the ExecRun is
 * iterated from, holding the latest `replayWindow` events, nested execs' events included), its
 * controls while it runs and its result once it ends. Positions are the log's (1 = first event).
 */
class RetainedRun {
  finished = false
  finishedAt = 0
  result: ExecResult | undefined
  resultPromise: Promise<ExecResult> | undefined
  controls: Controls | undefined

  constructor(
    readonly execId: string,
    readonly log: EventLog<AgentEvent>,
  ) {}

  /** Position of the last event pushed (0 before any). */
  get end(): number {
    return this.log.end
  }

  /** Position of the oldest event still kept. */
  get first(): number {
    return this.log.first
  }

  finish(result: ExecResult): void {
    this.finished = true
    this.finishedAt = Date.now()
    this.result = result
    // The live exec (its history, tools and context) is no longer reachable from here.
    this.controls = undefined
  }

  at(position: number): AgentEvent | undefined {
    return this.log.at(position)
  }

  /** Resolves at the next event or when the log closes (it closes before `finish`). */
  changed(): Promise<void> {
    return this.log.changed()
  }
}

/** Every root run of one runtime that `attach` can still read. */
export class RunRegistry {
  private readonly runs = new Map<string, RetainedRun>()
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>()
  /** Ids of the kept finished runs in the order they finished (a Set keeps insertion order). */
  private readonly finishedOrder = new Set<string>()
  readonly replayWindow: number
  readonly keepFinishedMs: number
  readonly maxFinishedRuns: number
  readonly maxLiveRuns: number

  constructor(options: RetentionOptions = {}) {
    this.replayWindow = checkCount('retention.replayWindow', options.replayWindow, 5000)
    this.keepFinishedMs = checkCount('retention.keepFinishedMs', options.keepFinishedMs, 5 * 60_000)
    this.maxFinishedRuns = checkCount('retention.maxFinishedRuns', options.maxFinishedRuns, 50)
    this.maxLiveRuns = checkCount('retention.maxLiveRuns', options.maxLiveRuns, 1000)
  }

  /** `budget_exceeded` when one more live run would pass `maxLiveRuns`. */
  refusal(): NestorError | undefined {
    if (this.replayWindow === 0 || this.runs.size - this.finishedOrder.size < this.maxLiveRuns) return undefined
    return new NestorError(
      'budget_exceeded',
      `this runtime already runs ${this.maxLiveRuns} root execs (retention.maxLiveRuns); try again when one ends`,
    )
  }

  /** Keeps a root exec attachable, reading from its own log. */
  open(execId: string, log: EventLog<AgentEvent>): RetainedRun | undefined {
    if (this.replayWindow === 0) return undefined
    // runtime.resume() continues an exec under its own id: the new run replaces the paused one and
    // its positions count on from the paused run's, whose kept events stay readable.
    const previous = this.runs.get(execId)
    if (previous) log.continueFrom(previous.log)
    const run = new RetainedRun(execId, log)
    this.drop(execId)
    this.runs.set(execId, run)
    return run
  }

  track(run: RetainedRun, controls: Controls, result: Promise<ExecResult>): void {
    run.controls = controls
    run.resultPromise = result
    void result.then((value) => {
      run.finish(value)
      if (this.runs.get(run.execId) !== run) return
      this.finishedOrder.add(run.execId)
      this.evictFinished()
      if (!Number.isFinite(this.keepFinishedMs)) return
      // unref: a kept run never holds the process open.
      const timer = setTimeout(() => this.runs.get(run.execId) === run && this.drop(run.execId), this.keepFinishedMs)
      timer.unref?.()
      this.timers.set(run.execId, timer)
    })
  }

  get(execId: string): RetainedRun | undefined {
    return this.runs.get(execId)
  }

  /** Drops the runs that finished first (not those started first: a long run just ended stays). */
  private evictFinished(): void {
    for (const execId of this.finishedOrder) {
      if (this.finishedOrder.size <= this.maxFinishedRuns) return
      this.drop(execId)
    }
  }

  private drop(execId: string): void {
    clearTimeout(this.timers.get(execId))
    this.timers.delete(execId)
    this.finishedOrder.delete(execId)
    this.runs.delete(execId)
  }
}

/**
 * A root exec's stream read from a position on: the events after `after`, live until the exec
 * ends. `steer`, `followUp` and `abort` reach the exec while it runs (`live`).
 */
export class AttachedRun implements AsyncIterable<AgentEvent> {
  readonly execId: string
  /** Position of the event before the first one this run yields. */
  readonly after: number
  /** Resolves with the exec's result once it ends. */
  readonly result: Promise<ExecResult>

  /** @internal */
  constructor(
    private readonly run: RetainedRun,
    after: number,
  ) {
    this.execId = run.execId
    this.after = after
    this.result = run.result ? Promise.resolve(run.result) : (run.resultPromise as Promise<ExecResult>)
  }

  get live(): boolean {
    return !this.run.finished
  }

  /** Position of the run's latest event so far. */
  get position(): number {
    return this.run.end
  }

  steer(message: string | UserMessage): void {
    this.run.controls?.steer(message)
  }

  followUp(message: string | UserMessage): void {
    this.run.controls?.followUp(message)
  }

  abort(reason?: unknown): void {
    this.run.controls?.abort(reason)
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    const run = this.run
    let next = this.after + 1
    let stopped = false
    const read = async (): Promise<IteratorResult<AgentEvent>> => {
      for (;;) {
        if (stopped) return { value: undefined, done: true }
        if (next <= run.end) {
          const event = run.at(next)
          // A reader slower than the replay window lost events: say so rather than skip them.
          if (!event) throw expired(run, next)
          next++
          return { value: event, done: false }
        }
        if (run.finished || run.log.closed) return { value: undefined, done: true }
        await run.changed()
      }
    }
    return {
      next: read,
      return: () => {
        stopped = true
        return Promise.resolve({ value: undefined, done: true })
      },
    }
  }
}

/** `runtime.attach`: undefined for an exec id this runtime does not (or no longer) keep. */
export function attachTo(registry: RunRegistry, execId: string, from: number | 'latest'): AttachedRun | undefined {
  if (from !== 'latest' && (!Number.isInteger(from) || from < 0))
    throw invalidOption('after', "a position (an integer >= 0) or 'latest'", from)
  const run = registry.get(execId)
  if (!run) return undefined
  const after = from === 'latest' ? run.end : from
  if (after > run.end) throw invalidOption('after', `a position of exec ${execId}: at most ${run.end} so far`, after)
  if (after + 1 < run.first) throw expired(run, after + 1)
  return new AttachedRun(run, after)
}

const expired = (run: RetainedRun, position: number) =>
  new NestorError(
    'events_expired',
    `events of exec ${run.execId} from position ${position} are no longer kept (the replay window holds ${run.first}..${run.end}); attach from ${run.first - 1} or later`,
  )

function checkCount(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (value === Infinity || (Number.isInteger(value) && value >= 0)) return value
  throw invalidOption(name, 'an integer >= 0 or Infinity', value)
}
