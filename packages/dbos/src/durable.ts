import type { ExecOptions, Journal, ExecResult, ExecRun, ResumeDecisions, RunState, Runtime } from '@nestor/core'
import { NestorError } from '@nestor/core'
import type { Pool } from 'pg'
import { readEvents, writeEvents, type DurableEvent } from './events.js'
import { deliverInbox, deliverWaiting, inboxWorkflow } from './inbox.js'
import { dbosSdk, pgPool } from './peer.js'
import { postgresJournal } from './postgres-journal.js'
import { DECISION_TOPIC, EVENTS_STREAM, INBOX_TOPIC, inboxIdOf, type InboxMessage } from './topics.js'

export type DurableOptions = {
  /** Names the DBOS workflow (`nestor.{name}`) and queue (`nestor-{name}`): the same in every process. */
  name: string
  /** How many of these execs one worker process runs at once (the queue's per-worker limit). */
  concurrency?: number
  /** Where the journal lives. Default: a pool on `DBOS_SYSTEM_DATABASE_URL`. */
  pool?: Pool
  /** Journal table (default `nestor_journal`). */
  table?: string
  /** Options for every exec (tools, model…); a journal and run id are added. */
  exec?: Omit<ExecOptions, 'signal' | 'output' | 'journal' | 'runId'>
  /** A decision that does not arrive within this many ms rejects the waiting calls. Default: wait forever. */
  approvalTimeoutMs?: number
  /** How often idle workers look at the queue and `result()` looks for the end. Default 100 ms (DBOS: 1000). */
  pollingIntervalMs?: number
}

export type DurableStartOptions = {
  /** Caller-chosen and idempotent: starting an id that exists returns the existing run. */
  workflowId: string
  approvalTimeoutMs?: number
}

export type DurableHandle = {
  readonly workflowId: string
  /** The exec's result once the workflow ends (after any approvals it waits for). */
  result(): Promise<ExecResult>
}

export type DurableExecs = {
  readonly name: string
  readonly queueName: string
  start(input: string, options: DurableStartOptions): Promise<DurableHandle>
  /** A handle on a run started anywhere. */
  handle(workflowId: string): DurableHandle
  /** The run's events after `after` (a position; 0 or -1 = from the start), live, until the run ends. */
  events(workflowId: string, options?: { after?: number }): AsyncIterable<DurableEvent>
  decide(workflowId: string, decisions: ResumeDecisions): Promise<void>
  steer(workflowId: string, text: string): Promise<void>
  followUp(workflowId: string, text: string): Promise<void>
}

type Segment = { kind: 'start'; input: string } | { kind: 'resume'; state: RunState; decisions: ResumeDecisions }
type WorkflowOptions = { approvalTimeoutMs?: number }

const FOREVER_SECONDS = 24 * 3600
// How long before its state expires a waiting run stops waiting and rejects the calls instead.
const EXPIRY_MARGIN_MS = 60_000

/**
 * Registers a runtime's execs with DBOS. Call it before `DBOS.launch()` in every process that runs
 * or starts them: DBOS finds the workflow by name when it recovers one. See docs/dbos.md.
 */
export function durable(runtime: Runtime, options: DurableOptions): DurableExecs {
  const { DBOS } = dbosSdk()
  const queueName = `nestor-${options.name}`
  const inboxQueueName = `nestor-${options.name}-inbox`
  const polling = options.pollingIntervalMs ?? 100
  let pool = options.pool
  let journal: Journal | undefined
  const journalOf = () => {
    if (journal) return journal
    if (!pool) {
      const url = process.env['DBOS_SYSTEM_DATABASE_URL']
      if (!url) throw new NestorError('invalid_options', '@nestor/dbos needs options.pool or DBOS_SYSTEM_DATABASE_URL')
      pool = new (pgPool())({ connectionString: url, max: 4 })
      // An idle client that loses its connection (a Postgres restart, a dropped socket) is emitted
      // as 'error' on the pool, which crashes the process when nobody listens. The pool has already
      // discarded that client and the next query opens a new one: nothing to do but not crash.
      pool.on('error', () => {})
    }
    const tableOption = options.table === undefined ? {} : { table: options.table }
    journal = postgresJournal(pool, tableOption)
    return journal
  }

  // One leg of the exec (the start, or a resume after a decision) is one DBOS step. A step that a
  // crash interrupted runs again on recovery, and the journal makes that run replay every finished
  // model turn and tool call instead of paying for them again.
  const runSegment = async (workflowId: string, segment: Segment): Promise<ExecResult> => {
    const journalNow = journalOf()
    const handOver = await deliverWaiting(workflowId, journalNow)
    const run: ExecRun =
      segment.kind === 'start'
        ? runtime.exec(segment.input, { ...options.exec, journal: journalNow, runId: workflowId })
        : runtime.resume(segment.state, segment.decisions, {
            journal: journalNow,
            ...(options.exec?.tools ? { tools: options.exec.tools } : {}),
          })
    handOver(run)
    const inbox = deliverInbox(workflowId, run, journalNow)
    const written = writeEvents(workflowId, run)
    const result = await run.result
    await written
    inbox.stop()
    return result
  }

  const workflow = DBOS.registerWorkflow(
    async (input: string, workflowOptions: WorkflowOptions): Promise<ExecResult> => {
      const workflowId = DBOS.workflowID as string
      try {
        let result = await DBOS.runStep(() => runSegment(workflowId, { kind: 'start', input }), {
          name: 'nestor.exec',
        })
        while (result.status === 'paused' && result.pending) {
          const waiting = result.pending.approvals
          const state = result.pending.state
          const decisions =
            (await waitForDecision(
              waiting,
              workflowOptions.approvalTimeoutMs ?? options.approvalTimeoutMs,
              state.expiresAt,
            )) ?? rejectAll(waiting, 'no decision before the approval timeout or the state expiring')
          result = await DBOS.runStep(() => runSegment(workflowId, { kind: 'resume', state, decisions }), {
            name: 'nestor.resume',
          })
        }
        return result
      } finally {
        // Also when a step failed: the inbox workflow must not wait forever, nor readers.
        await DBOS.send<InboxMessage>(inboxIdOf(workflowId), { kind: 'close' }, INBOX_TOPIC)
        await DBOS.closeStream(EVENTS_STREAM)
      }
    },
    { name: `nestor.${options.name}` },
  )
  const inbox = DBOS.registerWorkflow(inboxWorkflow, { name: `nestor.${options.name}.inbox` })

  // DBOS keeps a queue's configuration in its system database, and workers' dispatchers read it
  // from there: a limit only counts once some process wrote it. So every process writes it as it
  // launches (QueueConfiguration), a worker that only serves the queue included; one given no
  // concurrency (a client that only starts execs) creates the queue if it is missing but never
  // lifts another's limit. (DBOS's default conflict rule asks for the latest application version,
  // which a database that is being set up for the first time does not have yet.)
  let queues: Promise<unknown> | undefined
  const ensureQueues = () => {
    queues ??= Promise.all([
      DBOS.registerQueue(queueName, {
        minPollingIntervalMs: polling,
        ...(options.concurrency === undefined
          ? { onConflict: 'never_update' as const }
          : { workerConcurrency: options.concurrency, onConflict: 'always_update' as const }),
      }),
      // Inboxes only wait for messages: no limit, so they never take an exec's slot.
      DBOS.registerQueue(inboxQueueName, { minPollingIntervalMs: polling, onConflict: 'always_update' }),
    ])
    return queues
  }
  configureQueues(queueName, ensureQueues)

  const handle = (workflowId: string): DurableHandle => ({
    workflowId,
    result: () => DBOS.retrieveWorkflow<ExecResult>(workflowId).getResult({ pollingIntervalMs: polling }),
  })
  const send = async (workflowId: string, message: InboxMessage) => {
    await DBOS.send(inboxIdOf(workflowId), message, INBOX_TOPIC)
  }

  return {
    name: options.name,
    queueName,
    async start(input, startOptions) {
      await ensureQueues()
      // The inbox first, so that steering can be sent as soon as start() returns, even while the
      // exec waits in the queue; any worker takes it, and DBOS recovers it like the exec.
      await DBOS.startWorkflow(inbox, { workflowID: inboxIdOf(startOptions.workflowId), queueName: inboxQueueName })()
      const workflowOptions: WorkflowOptions = {}
      if (startOptions.approvalTimeoutMs !== undefined)
        workflowOptions.approvalTimeoutMs = startOptions.approvalTimeoutMs
      await DBOS.startWorkflow(workflow, { workflowID: startOptions.workflowId, queueName })(input, workflowOptions)
      return handle(startOptions.workflowId)
    },
    handle,
    events: (workflowId, eventOptions = {}) => readEvents(workflowId, eventOptions.after ?? 0),
    async decide(workflowId, decisions) {
      await DBOS.send(workflowId, decisions, DECISION_TOPIC)
    },
    steer: (workflowId, text) => send(workflowId, { kind: 'steer', text }),
    followUp: (workflowId, text) => send(workflowId, { kind: 'followUp', text }),
  }
}

/**
 * Waits for a decision that names only calls that are waiting. Another one (a typo, a stale id) is
 * dropped rather than failing the workflow: the run keeps waiting for a usable decision.
 */
async function waitForDecision(
  waiting: { toolCallId: string }[],
  timeoutMs: number | undefined,
  stateExpiresAt: number | undefined,
): Promise<ResumeDecisions | null> {
  const { DBOS } = dbosSdk()
  // The deadline is a recorded step: a recovered workflow waits until the same moment. A state
  // that expires ends the wait early enough for the rejections to resume it.
  const deadline =
    timeoutMs === undefined && stateExpiresAt === undefined
      ? undefined
      : await DBOS.runStep(
          async () =>
            Math.min(
              timeoutMs === undefined ? Infinity : Date.now() + timeoutMs,
              stateExpiresAt === undefined ? Infinity : stateExpiresAt - EXPIRY_MARGIN_MS,
            ),
          { name: 'nestor.approvalDeadline' },
        )
  const ids = new Set(waiting.map((approval) => approval.toolCallId))
  for (;;) {
    const decisions = await DBOS.recv<ResumeDecisions>(
      DECISION_TOPIC,
      deadline === undefined ? { timeoutSeconds: FOREVER_SECONDS } : { deadlineEpochMS: deadline },
    )
    if (decisions === null) {
      if (deadline === undefined) continue
      return null
    }
    if (namesOnly(decisions, ids)) return decisions
    DBOS.logger.warn(`@nestor/dbos: ignored a decision for ${DBOS.workflowID} that names calls not waiting`)
  }
}

function namesOnly(decisions: ResumeDecisions, ids: Set<string>): boolean {
  const named = [
    ...(decisions.approve ?? []),
    ...(decisions.reject ?? []).map((r) => r.toolCallId),
    ...(decisions.edit ?? []).map((e) => e.toolCallId),
  ]
  return named.length > 0 && named.every((id) => ids.has(id))
}

function rejectAll(approvals: { toolCallId: string }[], reason: string): ResumeDecisions {
  return { reject: approvals.map(({ toolCallId }) => ({ toolCallId, reason })) }
}

/**
 * Writes a queue's configuration while DBOS launches: DBOS initializes configured instances before
 * it recovers workflows or starts dispatching, so even the first dequeue sees the limit. (A
 * lifecycle callback runs after the dispatcher's first read, and a dispatcher rereads only every
 * second: a worker would take a whole backlog in that second.) The class extends the SDK's, so it
 * is made at the first durable(), when the SDK loads.
 */
function configureQueues(name: string, register: () => Promise<unknown>): void {
  QueueConfiguration ??= class QueueConfiguration extends dbosSdk().ConfiguredInstance {
    constructor(
      name: string,
      private readonly register: () => Promise<unknown>,
    ) {
      super(name)
    }

    override async initialize(): Promise<void> {
      await this.register()
    }
  }
  new QueueConfiguration(name, register)
}
let QueueConfiguration: (new (name: string, register: () => Promise<unknown>) => object) | undefined
