import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

describe('@nestor/providers root import', () => {
  it(
    'loads neither the AWS SDK nor the AI SDK; bedrock() imports its SDK on the first stream',
    { timeout: 300_000 },
    () => {
      // `pnpm test` builds first; run alone, build once if the output is missing.
      if (!existsSync(`${root}packages/providers/dist/bedrock/index.js`))
        execFileSync('npx', ['tsc', '-b'], { cwd: root, stdio: 'inherit', timeout: 240_000 })
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
