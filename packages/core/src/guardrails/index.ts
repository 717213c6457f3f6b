import { classifier } from './classifier.js'

/** Ready-made guardrails: `guardrails.classifier({ name, instructions, provider?, model? })`. */
export const guardrails = { classifier } as const
