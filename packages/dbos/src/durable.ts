import { dbos, dbosSdk } from './peer.js'
import type { ExecOptions, ExecResult, ExecRun, ResumeDecisions, RunState, Runtime } from '@nestor/core'
import { NestorError } from '@nestor/core'
import type { Pool } from 'pg'
import { poolOnDbosDatabase } from './database.js'
import { decisionProblem, namedCalls } from './decisions.js'
import { readEvents, writeCancelledEnd, type DurableEvent } from './events.js'
import { INBOX_IDLE_CHECK_MS, deliverWaiting, inboxWorkflow, tapTakenMessages, type OnInboxStep } from './inbox.js'
import { driveLeg } from './leg.js'
import { postgresJournal, type PostgresJournal } from './postgres-journal.js'
import {
  DECISION_TOPIC,
  isCancelDecision,
  EVENTS_STREAM,
  INBOX_TOPIC,
  inboxCursorRunOf,
  inboxIdOf,
  legsRunOf,
  type InboxMessage,
} from './topics.js'
import { checkWorkflowId } from './workflow-ids.js'

export type DurableOptions = {
  /** Names the DBOS workflow (`nestor.{name}`) and queue (`nestor-{name}`): the same in every process. */
  name: string
  /** How many of these execs one worker process runs at once (the queue's per-worker limit). */
  concurrency?: number
  /** Where the journal lives. Default: a pool on the database DBOS launched with (closed by `close()`). */
  pool?: Pool
  /** Journal table (default `nestor_journal`). */
  table?: string
  /** Options for every exec (tools, model…); a journal and run id are added. */
  exec?: Omit<ExecOptions, 'signal' | 'output' | 'journal' | 'runId'>
  /** A decision that does not arrive within this many ms rejects the waiting calls. Default: wait forever. */
  approvalTimeoutMs?: number
  /** How often idle workers look at the queue and `result()` looks for the end. Default 100 ms (DBOS: 1000). */
  pollingIntervalMs?: number
  /**
   * How long an idle inbox waits before it checks that its exec still runs: an inbox whose exec
   * ended without closing it, or never started (a failure inside `start()`), ends within this.
   * Default 60 000 (one status query per idle inbox per minute).
   */
  inboxIdleCheckMs?: number
  /** Test seam: called at each step of taking a steering message (a crash test kills the process there). */
  onInboxStep?: OnInboxStep
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
  /** Sends a decision; one that is not `{ approve?, reject?, edit? }` naming each call once is `invalid_options`. */
  decide(workflowId: string, decisions: ResumeDecisions): Promise<void>
  steer(workflowId: string, text: string): Promise<void>
  followUp(workflowId: string, text: string): Promise<void>
  /**
   * Takes over the execs of a worker that is gone (its `executorID`): they go back on their queues
   * and any live worker resumes them from their recorded steps. Call it only once that worker is
   * known to be dead (your supervisor's word: DBOS does not detect it); a worker that was only
   * slow loses ownership and its next DBOS write fails. Returns the workflow ids re-enqueued.
   */
  recover(executorId: string): Promise<string[]>
  /**
   * Stops a run: the leg in flight is aborted (its model call and tool bodies get the abort
   * signal), the run writes its `agent_end` (aborted) and DBOS marks it cancelled (no recovery
   * restarts it); its inbox ends. `result()` then rejects with `aborted`. Returns once DBOS has
   * recorded the cancel (at once for a queued run, after 10 s for one no worker ends).
   */
  cancel(workflowId: string): Promise<void>
  /**
   * The retention rule of the journal: deletes the journal rows (and inbox cursors) of runs that
   * ended (succeeded, failed or cancelled) before `endedBefore` (epoch ms). A run still able to
   * run again is never touched. Returns how many runs it cleared; call it from a daily job.
   */
  prune(options: { endedBefore: number; limit?: number }): Promise<number>
  /** Ends the journal pool `durable()` made (not a `pool` you gave it). Call after `DBOS.shutdown()`. */
  close(): Promise<void>
}

type Segment =
  { kind: 'start'; input: string } | { kind: 'resume'; leg: number; state: RunState; decisions: ResumeDecisions }
type WorkflowOptions = { approvalTimeoutMs?: number }

const FOREVER_SECONDS = 24 * 3600
// How long cancel() waits for a running workflow to end itself before DBOS cancels it in place.
const CANCEL_GRACE_MS = 10_000
// How long before its state expires a waiting run stops waiting and rejects the calls instead.
const EXPIRY_MARGIN_MS = 60_000

/**
 * Registers a runtime's execs with DBOS. Call it before `DBOS.launch()` in every process that runs
 * or starts them: DBOS finds the workflow by name when it recovers one. See docs/dbos.md.
 */
export function durable(runtime: Runtime, options: DurableOptions): DurableExecs {
  const queueName = `nestor-${options.name}`
  const workflowName = `nestor.${options.name}`
  const inboxQueueName = `nestor-${options.name}-inbox`
  const polling = options.pollingIntervalMs ?? 100
  const idleCheckMs = options.inboxIdleCheckMs ?? INBOX_IDLE_CHECK_MS
  if (!(typeof idleCheckMs === 'number' && Number.isFinite(idleCheckMs) && idleCheckMs > 0))
    throw new NestorError('invalid_options', `inboxIdleCheckMs must be a positive number of ms, got ${idleCheckMs}`)
  let ownPool: Pool | undefined
  let journal: PostgresJournal | undefined
  const journalOf = () => {
    if (journal) return journal
    const pool = options.pool ?? (ownPool = poolOnDbosDatabase())
    journal = postgresJournal(pool, options.table === undefined ? {} : { table: options.table })
    return journal
  }
  // One leg of the exec (the start, or a resume after a decision) is one DBOS step. A step that a
  // crash interrupted runs again on recovery, and the journal makes that run replay every finished
  // model turn and tool call instead of paying for them again.
  const runSegment = async (workflowId: string, segment: Segment): Promise<ExecResult> => {
    const onStep = options.onInboxStep
    const journalNow = onStep ? tapTakenMessages(journalOf(), workflowId, onStep) : journalOf()
    const handOver = await deliverWaiting(workflowId, journalNow, onStep)
    const run: ExecRun =
      segment.kind === 'start'
        ? runtime.exec(segment.input, { ...options.exec, journal: journalNow, runId: workflowId })
        : runtime.resume(segment.state, segment.decisions, {
            journal: journalNow,
            ...(options.exec?.tools ? { tools: options.exec.tools } : {}),
            // A leg paused after a handoff goes on as the agent it handed over to (docs/handoffs.md).
            ...(options.exec?.handoffs ? { handoffs: options.exec.handoffs } : {}),
            ...(options.exec?.maxHandoffs !== undefined ? { maxHandoffs: options.exec.maxHandoffs } : {}),
          })
    handOver(run)
    return driveLeg(workflowId, segment.kind === 'start' ? 0 : segment.leg, run, journalNow, onStep)
  }

  const workflow = dbos().registerWorkflow(
    async (input: string, workflowOptions: WorkflowOptions): Promise<ExecResult> => {
      const workflowId = dbos().workflowID as string
      // cancel() reaches the leg through the inbox (it aborts, its agent_end written while this
      // workflow still owns its stream) or a waiting workflow through CANCEL_DECISION; the
      // workflow then records its own cancel, last, so readers get the end before DBOS stops them.
      let cancelled = false
      try {
        let result = await dbos().runStep(() => runSegment(workflowId, { kind: 'start', input }), {
          name: 'nestor.exec',
        })
        for (let leg = 1; result.status === 'paused' && result.pending; leg++) {
          const waiting = result.pending.approvals
          const state = result.pending.state
          const decision = await waitForDecision(
            waiting,
            workflowOptions.approvalTimeoutMs ?? options.approvalTimeoutMs,
            state.expiresAt,
          )
          if (decision === 'cancelled') {
            const paused = result
            result = await dbos().runStep(() => writeCancelledEnd(workflowId, paused), { name: 'nestor.cancelled' })
            break
          }
          const decisions =
            decision ?? rejectAll(waiting, 'no decision before the approval timeout or the state expiring')
          result = await dbos().runStep(() => runSegment(workflowId, { kind: 'resume', leg, state, decisions }), {
            name: 'nestor.resume',
          })
        }
        // A durable exec gets no signal of its own: only cancel() aborts it.
        cancelled = result.status === 'aborted'
        return result
      } finally {
        // Also when a step failed: the inbox workflow must not wait, nor readers.
        await dbos().send<InboxMessage>(inboxIdOf(workflowId), { kind: 'close' }, INBOX_TOPIC)
        await dbos().closeStream(EVENTS_STREAM)
        if (cancelled) await dbos().cancelWorkflow(workflowId)
      }
    },
    { name: workflowName },
  )
  const inboxName = `nestor.${options.name}.inbox`
  const inbox = dbos().registerWorkflow(() => inboxWorkflow(idleCheckMs, options.onInboxStep), {
    name: inboxName,
  })

  // DBOS keeps a queue's configuration in its system database, and workers' dispatchers read it
  // from there: a limit only counts once some process wrote it. So every process writes it as it
  // launches (QueueConfiguration), a worker that only serves the queue included; one given no
  // concurrency (a client that only starts execs) creates the queue if it is missing but never
  // lifts another's limit. (DBOS's default conflict rule asks for the latest application version,
  // which a database that is being set up for the first time does not have yet.)
  let queues: Promise<unknown> | undefined
  const ensureQueues = () => {
    queues ??= Promise.all([
      dbos().registerQueue(queueName, {
        minPollingIntervalMs: polling,
        ...(options.concurrency === undefined
          ? { onConflict: 'never_update' as const }
          : { workerConcurrency: options.concurrency, onConflict: 'always_update' as const }),
      }),
      // Inboxes only wait for messages: no limit, so they never take an exec's slot.
      dbos().registerQueue(inboxQueueName, { minPollingIntervalMs: polling, onConflict: 'always_update' }),
    ])
    return queues
  }
  configureQueues(queueName, ensureQueues)

  const handle = (workflowId: string): DurableHandle => ({
    workflowId: checkWorkflowId(workflowId),
    result: () =>
      dbos()
        .retrieveWorkflow<ExecResult>(workflowId)
        .getResult({ pollingIntervalMs: polling })
        .catch(async (error: unknown) => {
          const status = await dbos()
            .getWorkflowStatus(workflowId)
            .catch(() => null)
          if (status?.status === 'CANCELLED') throw new NestorError('aborted', `run ${workflowId} was cancelled`)
          throw error
        }),
  })
  const send = async (workflowId: string, message: InboxMessage) => {
    await dbos().send(inboxIdOf(checkWorkflowId(workflowId)), message, INBOX_TOPIC)
  }

  return {
    name: options.name,
    queueName,
    async start(input, startOptions) {
      const workflowId = checkWorkflowId(startOptions.workflowId)
      await ensureQueues()
      // The inbox first, so that steering can be sent as soon as start() returns, even while the
      // exec waits in the queue; any worker takes it, and DBOS recovers it like the exec. An inbox
      // whose exec never starts (a failure in between) ends on its own (inbox.ts).
      await dbos().startWorkflow(inbox, { workflowID: inboxIdOf(workflowId), queueName: inboxQueueName })()
      const workflowOptions: WorkflowOptions = {}
      if (startOptions.approvalTimeoutMs !== undefined)
        workflowOptions.approvalTimeoutMs = startOptions.approvalTimeoutMs
      await dbos().startWorkflow(workflow, { workflowID: workflowId, queueName })(input, workflowOptions)
      return handle(workflowId)
    },
    handle,
    events: (workflowId, eventOptions = {}) => readEvents(checkWorkflowId(workflowId), eventOptions.after ?? 0),
    async decide(workflowId, decisions) {
      const problem = decisionProblem(decisions)
      if (problem) throw new NestorError('invalid_options', `invalid decision for ${workflowId}: ${problem}`)
      await dbos().send(checkWorkflowId(workflowId), decisions, DECISION_TOPIC)
    },
    steer: (workflowId, text) => send(workflowId, { kind: 'steer', text }),
    followUp: (workflowId, text) => send(workflowId, { kind: 'followUp', text }),
    async recover(executorId) {
      await ensureQueues()
      const pending = await dbos().listWorkflows({
        executorId,
        status: 'PENDING',
        workflowName: [workflowName, inboxName],
      })
      for (const found of pending)
        await dbos().resumeWorkflow(found.workflowID, {
          queueName: found.workflowName === inboxName ? inboxQueueName : queueName,
        })
      return pending.map((found) => found.workflowID)
    },
    async cancel(workflowId) {
      // The inbox relays it to the running leg (which aborts) or the waiting workflow, and ends;
      // the workflow writes its end and records the cancel itself.
      await send(workflowId, { kind: 'cancel' })
      const deadline = Date.now() + CANCEL_GRACE_MS
      for (;;) {
        const status = (await dbos().getWorkflowStatus(workflowId))?.status
        if (status === undefined || !['PENDING', 'ENQUEUED'].includes(status)) return
        // Queued (no leg to stop) or its worker gone: DBOS cancels it where it stands.
        if (status === 'ENQUEUED' || Date.now() > deadline) return dbos().cancelWorkflow(workflowId)
        await new Promise((resolve) => setTimeout(resolve, polling))
      }
    },
    async prune({ endedBefore, limit = 1000 }) {
      const ended = await dbos().listWorkflows({
        workflowName,
        status: ['SUCCESS', 'ERROR', 'CANCELLED'],
        completedBefore: new Date(endedBefore).toISOString(),
        limit,
        loadInput: false,
        loadOutput: false,
      })
      const ids = ended.map((found) => found.workflowID)
      if (ids.length > 0) await journalOf().forget([...ids, ...ids.map(inboxCursorRunOf), ...ids.map(legsRunOf)])
      return ids.length
    },
    async close() {
      const pool = ownPool
      ownPool = undefined
      journal = undefined
      await pool?.end()
    },
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
): Promise<ResumeDecisions | null | 'cancelled'> {
  // The deadline is a recorded step: a recovered workflow waits until the same moment. A state
  // that expires ends the wait early enough for the rejections to resume it.
  const deadline =
    timeoutMs === undefined && stateExpiresAt === undefined
      ? undefined
      : await dbos().runStep(
          async () =>
            Math.min(
              timeoutMs === undefined ? Infinity : Date.now() + timeoutMs,
              stateExpiresAt === undefined ? Infinity : stateExpiresAt - EXPIRY_MARGIN_MS,
            ),
          { name: 'nestor.approvalDeadline' },
        )
  const ids = new Set(waiting.map((approval) => approval.toolCallId))
  for (;;) {
    const decisions = await dbos().recv<ResumeDecisions>(
      DECISION_TOPIC,
      deadline === undefined ? { timeoutSeconds: FOREVER_SECONDS } : { deadlineEpochMS: deadline },
    )
    if (decisions === null) {
      if (deadline === undefined) continue
      return null
    }
    if (isCancelDecision(decisions)) return 'cancelled'
    const problem =
      decisionProblem(decisions) ??
      (namedCalls(decisions).every((id) => ids.has(id)) ? undefined : 'it names calls not waiting')
    if (problem === undefined) return decisions
    dbos().logger.warn(`@nestor/dbos: ignored a decision for ${dbos().workflowID}: ${problem}`)
  }
}

function rejectAll(approvals: { toolCallId: string }[], reason: string): ResumeDecisions {
  return { reject: approvals.map(({ toolCallId }) => ({ toolCallId, reason })) }
}

/**
 * Writes a queue's configuration while DBOS launches: DBOS initializes configured instances before
 * it recovers workflows or starts dispatching, so even the first dequeue sees the limit. (A
 * lifecycle callback runs after the dispatcher's first read, and a dispatcher rereads only every
 * second: a worker would take a whole backlog in that second.)
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
