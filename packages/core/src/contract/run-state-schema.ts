import type { z } from 'zod/v4'
import { lazy, zod, type Zod } from '../base/zod-lazy.js'
import {
  APPROVAL_DECISIONS,
  RECEIPT_STATUSES,
  type ApprovalRequest,
  type Message,
  type PendingInput,
  type ReceiptStatus,
  type ToolChoice,
  type ToolReceipt,
  type Usage,
} from './types.js'
import type { JournalEntry } from './journal.js'

// The one definition of a paused exec as stored data. The RunState type, the checks `resume`
// runs on a state it is given, and ExecResult's state fields all derive from these schemas, so a
// field added here is stored, verified and typed at once. Message parts are loose objects: a
// provider may add fields to its messages, and those must survive a pause unchanged.

export const RUN_STATE_VERSION = 1

/** The schemas, built at their first use (importing core loads no zod, see zod-lazy.ts). */
export const stateSchemas = lazy(() => buildSchemas(zod()))

function buildSchemas(z: Zod) {
  /** Anything JSON can hold (opaque provider data, tool arguments, details). */
  const json = z.json()
  const record: z.ZodType<Record<string, unknown>> = z.record(z.string(), json)
  const count = z.number().int().nonnegative()

  const usage: z.ZodType<Usage> = z.object({
    input: z.number(),
    output: z.number(),
    cacheRead: z.number(),
    cacheWrite: z.number(),
    total: z.number(),
    cost: z
      .object({
        input: z.number(),
        output: z.number(),
        cacheRead: z.number(),
        cacheWrite: z.number(),
        total: z.number(),
      })
      .optional(),
  })

  const text = z.looseObject({ type: z.literal('text'), text: z.string() })
  // Media by value (base64 `data`) or by reference (`url`), as the message types allow.
  const image = z.union([
    z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string() }),
    z.looseObject({ type: z.literal('image'), url: z.string(), mimeType: z.string().optional() }),
  ])
  const file = z.union([
    z.looseObject({ type: z.literal('file'), data: z.string(), mimeType: z.string(), name: z.string().optional() }),
    z.looseObject({ type: z.literal('file'), url: z.string(), mimeType: z.string(), name: z.string().optional() }),
  ])
  const userPart = z.union([text, image, file])
  // A tool result may also hold audio and MCP resources (types.ts ToolResultContent).
  const resourceBody = z.union([
    z.looseObject({ uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
    z.looseObject({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
  ])
  const toolResultPart = z.union([
    userPart,
    z.looseObject({ type: z.literal('audio'), data: z.string(), mimeType: z.string() }),
    z.looseObject({ type: z.literal('resource'), resource: resourceBody }),
    z.looseObject({ type: z.literal('resource_link'), uri: z.string(), name: z.string() }),
  ])
  const thinking = z.looseObject({
    type: z.literal('thinking'),
    thinking: z.string(),
    signature: z.string().optional(),
    redacted: z.boolean().optional(),
  })
  const toolCall = z.looseObject({
    type: z.literal('toolCall'),
    id: z.string(),
    name: z.string(),
    arguments: record,
    providerData: record.optional(),
    invalidArguments: z.string().optional(),
  })

  const userMessage = z.looseObject({ role: z.literal('user'), content: z.union([z.string(), z.array(userPart)]) })
  const assistantMessage = z.looseObject({
    role: z.literal('assistant'),
    content: z.array(z.discriminatedUnion('type', [text, thinking, toolCall])),
    stopReason: z.enum(['stop', 'length', 'toolUse', 'error', 'aborted']),
    usage,
    provider: z.string(),
    model: z.string(),
    errorMessage: z.string().optional(),
    responseId: z.string().optional(),
    refusal: z.string().optional(),
    providerData: record.optional(),
  })
  const toolResultMessage = z.looseObject({
    role: z.literal('toolResult'),
    toolCallId: z.string(),
    toolName: z.string(),
    content: z.array(toolResultPart),
    isError: z.boolean(),
    // For events and UIs only (never sent to a model), so anything goes; a state holds its JSON form.
    details: z.unknown().optional(),
  })
  const messageSchema: z.ZodType<Message> = z.discriminatedUnion('role', [
    userMessage,
    assistantMessage,
    toolResultMessage,
  ])

  const toolChoice: z.ZodType<ToolChoice> = z.union([
    z.enum(['auto', 'required', 'none']),
    z.object({ type: z.literal('function'), name: z.string() }),
  ])

  const receiptStatus: z.ZodType<ReceiptStatus> = z.enum(RECEIPT_STATUSES)
  const receipt: z.ZodType<ToolReceipt> = z.object({
    toolCallId: z.string(),
    toolName: z.string(),
    execId: z.string(),
    depth: count,
    signature: z.string(),
    status: receiptStatus,
    attempts: count,
    cached: z.boolean(),
    startedAt: z.number(),
    durationMs: z.number(),
    batchId: z.string().optional(),
    itemKey: z.string().optional(),
    callKey: z.string().optional(),
    control: z
      .object({
        status: z.string().optional(),
        decision: z.enum(['continue', 'stop']),
        diagnosis: record,
        reason: z.string().optional(),
      })
      .optional(),
    approval: z.object({ required: z.boolean(), decision: z.enum(APPROVAL_DECISIONS).optional() }).optional(),
    guardrails: z
      .array(
        z.object({
          name: z.string(),
          phase: z.enum(['before', 'after']),
          verdict: z.enum(['pass', 'tripwire', 'retry', 'reject', 'replace']),
          reason: z.string().optional(),
        }),
      )
      .optional(),
  })

  const approvalRequest: z.ZodType<ApprovalRequest> = z.object({
    toolCallId: z.string(),
    toolName: z.string(),
    args: record,
    execId: z.string(),
    depth: count,
    path: z.array(z.string()),
    preview: json.optional(),
  })

  // A question waiting for its answer; `key` is where the answer goes in the tree journal. Its
  // schema is only checked to be an object here: the resume compiles it to check the answers.
  const waitingInput: z.ZodType<PendingInput & { key: string }> = z.object({
    id: z.string().min(1),
    toolCallId: z.string(),
    path: z.array(z.string()),
    question: z.string(),
    schema: z.record(z.string(), z.unknown()),
    key: z.string().min(1),
  })

  const journalEntry: z.ZodType<JournalEntry> = z.looseObject({
    key: z.string().min(1),
    kind: z.enum(['model', 'tool', 'decision', 'answer', 'message', 'context']),
  })

  const runStateSchema = z.object({
    version: z.literal(RUN_STATE_VERSION),
    /** Unique per pause: the id a resume claims, so one state is resumed at most once. */
    stateId: z.string().min(1).optional(),
    /** When the state stops being resumable (ms since the epoch; absent: never). See `stateMaxAgeMs`. */
    expiresAt: z.number().finite().optional(),
    execId: z.string(),
    model: z.string(),
    system: z.string().optional(),
    history: z.array(messageSchema),
    /** Index in `history` where this exec's own messages start. */
    startIndex: count,
    toolNames: z.array(z.string()),
    toolChoice: toolChoice.optional(),
    parallelToolCalls: z.boolean().optional(),
    /** The exec's own stopAtTools, when it set them. */
    stopAtTools: z.array(z.string()).optional(),
    /** The declared owner the exec ran for (`exec({ owner })`): a resume applies its defaults again. */
    owner: z.string().min(1).optional(),
    /** The agent answering when the exec paused (docs/handoffs.md): a resume continues as it. */
    agent: z.string().min(1).optional(),
    /** Handoffs taken so far (maxHandoffs counts across the pause). */
    handoffsUsed: count.optional(),
    iterationsUsed: count,
    /** `null` stands for Infinity (JSON has no Infinity). */
    iterationBudget: count.nullable(),
    /** Tool calls this exec ran, and its maxToolCalls (`null`: Infinity); absent in older states. */
    toolCallsUsed: count.optional(),
    toolCallBudget: count.nullable().optional(),
    usage,
    totalUsage: usage,
    /** [signature, first call id] of calls that already succeeded (duplicate rejection survives a pause). */
    succeeded: z.array(z.tuple([z.string(), z.string()])),
    /** [signature, consecutive failures] (the circuit breaker survives a pause). */
    streaks: z.array(z.tuple([z.string(), count])),
    /** Calls waiting for a decision. */
    pending: z.array(approvalRequest),
    /** Questions waiting for an answer (`ctx.ask`), anywhere in the tree: docs/asking.md. */
    inputs: z.array(waitingInput).optional(),
    /** Ids of the paused message's calls still without a result, in the model's order. */
    remaining: z.array(z.string()),
    /** Decisions already taken for calls in `remaining` (partial decisions). */
    decisions: z.record(
      z.string(),
      z.object({ approved: z.boolean(), args: record.optional(), reason: z.string().optional() }),
    ),
    receipts: z.array(receipt),
    /** Tree-wide counters, so budgets continue across the pause. */
    tree: z.object({
      iterations: count,
      tokens: z.number().nonnegative(),
      elapsedMs: z.number().nonnegative(),
      toolCalls: count.optional(),
      /** Dollars the tree's priced turns cost (maxTotalCostUsd). */
      costUsd: z.number().nonnegative().optional(),
    }),
    /**
     * The exec tree's journal (docs/durability.md): its run id, its entries (or the `id` of the
     * external journal that holds them), and where each waiting call sits, by journal key.
     */
    journal: z
      .object({
        runId: z.string().min(1),
        id: z.string().min(1).optional(),
        entries: z.array(journalEntry).optional(),
        waiting: z.array(z.object({ toolCallId: z.string(), key: z.string() })),
      })
      .optional(),
    /** HMAC-SHA256 (hex) of the canonical JSON of every other field, with `stateSecret`. */
    signature: z.string().optional(),
  })

  // The parts a journal entry is checked with (state/journal-entry.ts), typed loosely so the
  // declaration files name no zod generic whose arity differs between zod versions (zod 3's v4).
  const parts: Record<'record' | 'count' | 'assistantMessage' | 'toolResultMessage' | 'receipt', z.ZodType> = {
    record,
    count,
    assistantMessage,
    toolResultMessage,
    receipt,
  }
  return { messageSchema, runStateSchema, parts }
}

/** A paused exec as plain JSON. Versioned; optionally HMAC-signed with the runtime's `stateSecret`. */
export type RunState = z.infer<ReturnType<typeof buildSchemas>['runStateSchema']>
