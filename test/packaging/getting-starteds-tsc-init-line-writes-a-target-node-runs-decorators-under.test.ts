import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { expect, it } from 'vitest'
import { scratchDir } from '../support/scratch-dir.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

it("docs/getting-started.md's tsc --init line, run as written, writes a tsconfig whose output Node runs @tool under", () => {
  const doc = readFileSync(join(root, 'docs/getting-started.md'), 'utf8')
  const line = /^npx tsc --init.*$/m.exec(doc)?.[0]
  expect(line).toBeDefined()
  const dir = scratchDir('nestor-tsc-init-line-')
  const args = line!.split(/\s+/).slice(2)
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), ...args], { cwd: dir })
  const { config } = ts.parseConfigFileTextToJson('tsconfig.json', readFileSync(join(dir, 'tsconfig.json'), 'utf8'))
  const options = (config as { compilerOptions: Record<string, unknown> }).compilerOptions
  // es2022 or lower: tsc compiles the standard decorators away (esnext leaves `@tool` for Node to choke on).
  expect(String(options.target).toLowerCase()).toBe('es2022')
  expect(options.experimentalDecorators).toBeUndefined()
  expect(options).toMatchObject({ rootDir: 'src', outDir: 'dist', types: ['node'] })
})
