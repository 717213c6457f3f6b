// @anthropic-ai/sdk is not installed in this app: the subpath imports, its first call fails clearly.
import { Runtime } from '@nestor/core'
import { anthropic } from '@nestor/providers/anthropic'

const result = await new Runtime({ provider: anthropic({ apiKey: 'sk-test' }), model: 'claude-test' }).exec('hi')
console.log(JSON.stringify({ status: result.status, code: result.error?.code, message: result.error?.message }))
