import { generateId, redactDeep } from '@nestor/core/integration-kit'
import { AssistantBuilder } from '@nestor/providers/provider-kit'
import { contextBench } from './context.js'
import { handoffMicro } from './handoff.js'
import { memoryMicro } from './memory.js'
import { runtimeMicro } from './micro-runtime.js'
import { otelMicro } from './micro-otel.js'
import { formatTime, timePerOp, type MicroResult } from './time-per-op.js'

// Micro-benchmarks of the paths Nestor runs per event, per fragment and per nested exec. Each is
// timed in batches after a warm-up; the median batch is reported, per operation.

async function builderMicro(): Promise<MicroResult> {
  const fragment = '{"text":"abcdefgh'.slice(0, 16)
  const n = 10_000
  const perOp = await timePerOp(() => {
    const b = new AssistantBuilder('bench', 'm')
    b.toolCallStart(0, 'call_1', 'echo')
    for (let i = 0; i < n; i++) b.toolCallDelta(0, fragment)
    b.toolCallEnd(0)
  }, n)
  return {
    name: 'AssistantBuilder.toolCallDelta',
    perOp: formatTime(perOp),
    note: `${n} 16-byte fragments into one call (then one JSON.parse attempt)`,
  }
}

async function redactMicro(): Promise<MicroResult[]> {
  const secrets = ['sk-bench-not-a-real-key']
  const event = {
    type: 'tool_end',
    execId: 'exec_1',
    depth: 0,
    seq: 12,
    timestamp: 0,
    toolCallId: 'call_1',
    toolName: 'echo',
    isError: false,
    durationMs: 1,
    result: {
      role: 'toolResult',
      toolCallId: 'call_1',
      toolName: 'echo',
      isError: false,
      content: [{ type: 'text', text: 'x'.repeat(1000) }],
    },
  }
  const delta = {
    type: 'message_delta',
    execId: 'exec_1',
    depth: 0,
    seq: 13,
    timestamp: 0,
    delta: { kind: 'text', text: 'tok1 ' },
  }
  const history = Array.from({ length: 500 }, (_, i) => ({
    role: 'user',
    content: `message ${i} lorem ipsum dolor sit amet`,
  }))
  const n = 2000
  const eventOp = await timePerOp(() => {
    for (let i = 0; i < n; i++) redactDeep(event, secrets)
  }, n)
  const deltaOp = await timePerOp(() => {
    for (let i = 0; i < n; i++) redactDeep(delta, secrets)
  }, n)
  const historyOp = await timePerOp(() => {
    for (let i = 0; i < 20; i++) redactDeep(history, secrets)
  }, 20)
  return [
    {
      name: 'redactDeep(text delta event)',
      perOp: formatTime(deltaOp),
      note: 'one secret, nothing to redact (the common case)',
    },
    {
      name: 'redactDeep(tool_end event, 1 KB result)',
      perOp: formatTime(eventOp),
      note: 'one secret, nothing to redact',
    },
    {
      name: 'redactDeep(500-message history)',
      perOp: formatTime(historyOp),
      note: 'if anything redacts whole histories per event, this is the price',
    },
  ]
}

/** What a random id costs against the per-process counter ids they replaced (one per exec at least). */
async function idMicro(): Promise<MicroResult[]> {
  const n = 100_000
  let sink = 0
  const random = await timePerOp(() => {
    for (let i = 0; i < n; i++) sink += generateId('exec').length
  }, n)
  let counter = 0
  const counted = await timePerOp(() => {
    for (let i = 0; i < n; i++) sink += `exec_1a2b3c4d${(counter++).toString(36)}`.length
  }, n)
  if (sink === 0) throw new Error('unreachable')
  return [
    { name: 'generateId (128 random bits)', perOp: formatTime(random), note: 'an exec id, a generated call id' },
    { name: 'counter id (before #27)', perOp: formatTime(counted), note: 'prefix + counter, for comparison' },
  ]
}

export async function runMicro(): Promise<MicroResult[]> {
  return [
    ...(await idMicro()),
    ...(await runtimeMicro()),
    ...(await handoffMicro()),
    ...(await otelMicro()),
    await builderMicro(),
    ...(await redactMicro()),
    ...(await memoryMicro()),
    ...(await contextBench()),
  ]
}
