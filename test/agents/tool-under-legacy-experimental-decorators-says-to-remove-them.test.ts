import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { expect, it } from 'vitest'
import { scratchDir } from '../support/scratch-dir.js'

// An agent as tsc compiles it with `experimentalDecorators: true` (legacy decorators): written
// beside this test so it resolves @nestor/agents like an app's file would.
const SOURCE = `
import { Agent, tool } from '@nestor/agents'
import { z } from 'zod'
export class Librarian extends Agent {
  @tool({ description: 'Search', parameters: z.object({ word: z.string() }) })
  search({ word }: { word: string }) { return word }
}
`

it('@tool compiled as a legacy decorator fails invalid_options saying to remove experimentalDecorators', async () => {
  const { outputText } = ts.transpileModule(SOURCE, {
    compilerOptions: { experimentalDecorators: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  })
  const dir = scratchDir('legacy-', fileURLToPath(new URL('.', import.meta.url)))
  writeFileSync(join(dir, 'librarian.mjs'), outputText)
  const error = await import(join(dir, 'librarian.mjs')).then(
    () => undefined,
    (e: unknown) => e as { code?: string; message?: string },
  )
  expect(error?.code).toBe('invalid_options')
  expect(error?.message).toMatch(
    /^@tool is a standard \(TC39\) decorator, but it was called as a legacy one: remove "experimentalDecorators"/,
  )
})
