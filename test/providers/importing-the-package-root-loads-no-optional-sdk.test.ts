import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/built.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

describe('@nestor/providers root import', () => {
  it(
    'loads neither the AWS SDK, the AI SDK nor the price dataset; bedrock() imports its SDK on the first stream',
    { timeout: 300_000 },
    () => {
      ensureBuilt()
      const out = execFileSync(
        process.execPath,
        [
          '--import',
          fileURLToPath(new URL('./fixtures/forbid-sdks.mjs', import.meta.url)),
          fileURLToPath(new URL('./fixtures/import-root.mjs', import.meta.url)),
        ],
        {
          cwd: root,
          encoding: 'utf8',
          timeout: 60_000,
        },
      )
      const seen = JSON.parse(out.trim().split('\n').at(-1)!) as { imported: boolean; firstStream: string }
      expect(seen.imported).toBe(true)
      expect(seen.firstStream).toContain('forbidden SDK import: @aws-sdk/client-bedrock-runtime')
    },
  )
})
