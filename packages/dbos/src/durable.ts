import { dbos } from './peer.js'
import { configureQueues } from './queues.js'
import type { ExecOptions, ExecResult, ExecRun, PendingInput, ResumeDecisions, RunState, Runtime } from '@nestor/core'
import { NestorError } from '@nestor/core'
import type { Pool } from 'pg'
import { poolOnDbosDatabase } from './database.js'
import { answersProblem, decisionProblem, namedCalls, refuseQuestions, rejectAll } from './decisions.js'
import { readEvents, streamSoFar, writeCancelledEnd, type DurableEvent } from './events.js'
import {
  INBOX_IDLE_CHECK_MS,
  closeInbox,
  deliverWaiting,
  inboxWorkflow,
  recordSent,
  tapTakenMessages,
  type OnInboxStep,
} from './inbox.js'
import { driveLeg, preloaded } from './leg.js'
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
  /**
   * `false`: the run starts at once in this process instead of waiting in the queue for a worker
   * (no queue round trip, nor its per-worker limit). Durable all the same: if this process dies,
   * `recover()` or DBOS's own recovery resumes it. Default `true`.
   */
  queued?: boolean
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
  /**
   * Sends a decision, and answers to the run's questions (`answers`, docs/asking.md); one that is not
   * `{ approve?, reject?, edit?, answers? }` naming each call once is `invalid_options`. One the run
   * cannot use (a call or question not waiting, an answer its schema refuses) is dropped: it waits on.
   */
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

type WorkflowHandle = { getResult(options: { pollingIntervalMs: number }): Promise<ExecResult> }
type Segment =
  | { kind: 'start'; input: string }
  | { kind: 'resume'; leg: number; state: RunState; decisions: ResumeDecisions; unanswered?: string }
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
    const tapped = onStep ? tapTakenMessages(journalOf(), workflowId, onStep) : journalOf()
    // A leg's reads before its first model call go out at once: the run's entries and the inbox
    // cursor in one query, and the stream (its first batch waits for that read, the model does not).
    const journalNow = preloaded(tapped, [workflowId, inboxCursorRunOf(workflowId)], journalOf())
    const soFar = streamSoFar(workflowId, segment.kind === 'start' ? 0 : segment.leg)
    soFar.catch(() => undefined)
    const waiting = await deliverWaiting(workflowId, journalNow, onStep)
    const run: ExecRun =
      segment.kind === 'start'
        ? runtime.exec(segment.input, { ...options.exec, journal: journalNow, runId: workflowId })
        : runtime.resume(segment.state, segment.decisions, {
            journal: journalNow,
            ...(options.exec?.tools ? { tools: options.exec.tools } : {}),
            ...(segment.unanswered !== undefined && { ask: refuseQuestions(segment.unanswered) }),
            // A leg paused after a handoff goes on as the agent it handed over to (docs/handoffs.md).
            ...(options.exec?.handoffs ? { handoffs: options.exec.handoffs } : {}),
            ...(options.exec?.maxHandoffs !== undefined ? { maxHandoffs: options.exec.maxHandoffs } : {}),
          })
    waiting.handOver(run)
    return driveLeg(workflowId, run, journalNow, waiting, soFar, { onStep, onLast: () => closeInbox(workflowId) })
  }
  // The leg that ends the run (it did not pause, or it failed) closes the run's inbox within its
  // step, so a run nobody steered pays no workflow operation (a commit) for an inbox it never had.
  const runLeg = (workflowId: string, segment: Segment): Promise<ExecResult> =>
    runSegment(workflowId, segment).catch(async (error: unknown) => {
      await closeInbox(workflowId).catch(() => undefined)
      throw error
    })

  const workflow = dbos().registerWorkflow(
    async (input: string, workflowOptions: WorkflowOptions): Promise<ExecResult> => {
      const workflowId = dbos().workflowID as string
      // cancel() reaches the leg through the inbox (it aborts, its agent_end written while this
      // workflow still owns its stream) or a waiting workflow through CANCEL_DECISION; the
      // workflow then records its own cancel, last, so readers get the end before DBOS stops them.
      let cancelled = false
      // A step that returned the run's result ended its stream (leg.ts); one that threw did not.
      let ended = false
      try {
        let result = await dbos().runStep(() => runLeg(workflowId, { kind: 'start', input }), {
          name: 'nestor.exec',
        })
        for (let leg = 1; result.status === 'paused' && result.pending; leg++) {
          const waiting = result.pending.approvals
          const { state, inputs = [] } = result.pending
          const decision = await waitForDecision(
            waiting,
            inputs,
            workflowOptions.approvalTimeoutMs ?? options.approvalTimeoutMs,
            state.expiresAt,
          )
          if (decision === 'cancelled') {
            const paused = result
            result = await dbos().runStep(() => writeCancelledEnd(workflowId, paused), { name: 'nestor.cancelled' })
            break
          }
          const late = 'no decision before the approval timeout or the state expiring'
          // Timed out: the calls are rejected, and the questions asked again get input_unavailable.
          const segment: Segment = decision
            ? { kind: 'resume', leg, state, decisions: decision }
            : { kind: 'resume', leg, state, decisions: rejectAll(waiting, late), unanswered: late }
          result = await dbos().runStep(() => runLeg(workflowId, segment), { name: 'nestor.resume' })
        }
        ended = true
        // A durable exec gets no signal of its own: only cancel() aborts it.
        cancelled = result.status === 'aborted'
        return result
      } finally {
        // When a step failed: readers must not wait.
        if (!ended) await dbos().closeStream(EVENTS_STREAM)
        if (cancelled) await dbos().cancelWorkflow(workflowId)
      }
    },
    // Input and result as plain JSON, not DBOS's superjson (its walk over the result was a tenth of
    // the worker's CPU on a short exec); the journal and the stream hold the same data as JSON.
    { name: workflowName, serialization: 'portable' },
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

  // `started`: the handle DBOS gave start(); for a run started in this process it awaits the
  // workflow itself rather than polling its status.
  const handle = (workflowId: string, started?: WorkflowHandle): DurableHandle => ({
    workflowId: checkWorkflowId(workflowId),
    result: () =>
      (started ?? dbos().retrieveWorkflow<ExecResult>(workflowId))
        .getResult({ pollingIntervalMs: polling })
        .catch(async (error: unknown) => {
          const status = await dbos()
            .getWorkflowStatus(workflowId)
            .catch(() => null)
          if (status?.status === 'CANCELLED') throw new NestorError('aborted', `run ${workflowId} was cancelled`)
          throw error
        }),
  })
  // The inbox workflow starts with the first message (starting an id that exists is a no-op):
  // a run nobody steers or cancels never has one. Any worker takes it, and DBOS recovers it like
  // the exec; one whose exec never ran, or ended first, ends on its own (inbox.ts).
  const send = async (workflowId: string, message: InboxMessage) => {
    const inboxId = inboxIdOf(checkWorkflowId(workflowId))
    await ensureQueues()
    await dbos().startWorkflow(inbox, { workflowID: inboxId, queueName: inboxQueueName })()
    await dbos().send(inboxId, message, INBOX_TOPIC)
    // A leg that starts after this waits for the inbox to relay it: it reaches the next model call.
    if (message.kind === 'steer' || message.kind === 'followUp') await recordSent(journalOf(), workflowId)
  }

  return {
    name: options.name,
    queueName,
    async start(input, startOptions) {
      const workflowId = checkWorkflowId(startOptions.workflowId)
      await ensureQueues()
      const workflowOptions: WorkflowOptions = {}
      if (startOptions.approvalTimeoutMs !== undefined)
        workflowOptions.approvalTimeoutMs = startOptions.approvalTimeoutMs
      const where = startOptions.queued === false ? {} : { queueName }
      const started = await dbos().startWorkflow(workflow, { workflowID: workflowId, ...where })(input, workflowOptions)
      return handle(workflowId, started)
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
  inputs: readonly PendingInput[],
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
      (namedCalls(decisions).every((id) => ids.has(id)) ? undefined : 'it names calls not waiting') ??
      answersProblem(decisions, inputs)
    if (problem === undefined) return decisions
    dbos().logger.warn(`@nestor/dbos: ignored a decision for ${dbos().workflowID}: ${problem}`)
  }
}
