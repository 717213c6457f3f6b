import { ContextStoreClass, asyncContext } from '../platform/node.js'
import type { ExecFrameInfo } from '../contract/exec-types.js'
import type { Nesting } from './context.js'

/**
 * The nesting rules live here. A tool body runs inside a Frame: the exec that called it and the
 * tool that is running. A nested exec() reads the frame to find its parent; parallel siblings each
 * get their own frame object, so they never see each other.
 */
export type Frame = Nesting & { runningTool: string }

const frames = new ContextStoreClass<Frame>()

// The frame ToolContext.exec names while it opens its child: exec() reads its parent at once, so
// a synchronous override nests the same way with or without AsyncLocalStorage.
let given: Frame | undefined

export const currentFrame = (): Frame | undefined => given ?? frames.getStore()

/** Runs `open` (synchronous) as if inside `frame`: how `ToolContext.exec` finds its parent. */
export function inFrameNow<T>(frame: Frame, open: () => T): T {
  const before = given
  given = frame
  try {
    return open()
  } finally {
    given = before
  }
}

/** The exec whose tool body is running here, or undefined outside any tool body. */
export function currentExec(): ExecFrameInfo | undefined {
  const frame = currentFrame()
  return (
    frame && { execId: frame.ctx.execId, depth: frame.ctx.depth, path: frame.ctx.path, toolName: frame.runningTool }
  )
}

// Before Node 24 an enabled AsyncLocalStorage slows every promise of the process (promise hooks),
// so frames are on only while a tool body is in flight. Node 24's AsyncContextFrame needs no hooks:
// the frame stays on. docs/architecture.md, "Performance notes", has the measure.
const hooked = asyncContext === 'hooked'
let bodiesInFlight = 0

/** Runs a tool body inside `frame`; resolves or rejects with the body. */
export function runInFrame<T>(frame: Frame, body: () => T | Promise<T>): Promise<T> {
  // Without AsyncLocalStorage (browsers) no frame would outlast the body's first await: the body
  // runs in none, so the ambient exec() fails `no_runtime` there at once, naming ctx.exec.
  if (asyncContext === 'none') return (async () => body())()
  // An async wrapper: a body that throws synchronously still becomes a rejected promise.
  if (!hooked) return frames.run(frame, async () => body())
  bodiesInFlight++
  const settled = () => {
    if (--bodiesInFlight === 0) frames.disable()
  }
  const result = frames.run(frame, async () => body())
  result.then(settled, settled)
  return result
}

/**
 * Runs `fn` outside any frame. Listeners run here: an exec() a listener starts is an independent
 * root even when the event it reacts to was emitted from inside a tool body.
 */
export function outsideFrames<T>(fn: () => T): T {
  const before = given
  given = undefined
  try {
    return frames.getStore() === undefined ? fn() : frames.exit(fn)
  } finally {
    given = before
  }
}
