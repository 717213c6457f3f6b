import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { scratchDir } from './scratch-dir.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The text of a docs/ guide. */
export const guide = (name: string): string => readFileSync(join(root, 'docs', name), 'utf8')

/** The ```ts block of a guide that starts with `marker` (a `// runnable…` line), marker included. */
export function exampleOf(text: string, marker: string): string | undefined {
  const escaped = marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return text.match(new RegExp('```ts\\n(' + escaped + '\\n[\\s\\S]*?)```'))?.[1]
}

/**
 * Runs an example as a module of its own, under the repository so that its bare imports resolve
 * like an application's.
 */
export async function runExample(code: string, prefix: string): Promise<void> {
  const dir = join(root, 'node_modules', '.cache')
  mkdirSync(dir, { recursive: true })
  const file = join(scratchDir(prefix, dir), 'example.ts')
  writeFileSync(file, code)
  await import(file)
}
