// `@nestor/providers/gemini`: loads `@google/generative-ai` (an optional peer) on the first call only.
export * from './gemini/index.js'
