import { AsyncLocalStorage } from 'node:async_hooks'
import type { ExecContext } from './exec-context.js'

/**
 * The nesting rules live here. A tool body runs inside a Frame: the exec that called it and the
 * tool that is running. A nested exec() reads the frame to find its parent; parallel siblings each
 * get their own frame object, so they never see each other.
 */
export type Frame = { ctx: ExecContext; runningTool: string; signal: AbortSignal }

export const frames = new AsyncLocalStorage<Frame>()

export const currentFrame = (): Frame | undefined => frames.getStore()
