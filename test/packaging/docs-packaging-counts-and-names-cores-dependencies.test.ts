import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (path: string) => readFileSync(`${root}/${path}`, 'utf8')
const COUNT = ['none', 'one', 'two', 'three', 'four', 'five']

it("docs/packaging.md counts and names core's dependencies as its package.json declares them", () => {
  const deps = Object.keys((JSON.parse(read('packages/core/package.json')) as { dependencies: object }).dependencies)
  const paragraph = read('docs/packaging.md')
    .split(/\n(?=- \*\*)/)
    .find((part) => part.startsWith('- **Dependencies.**'))!
    .replace(/\s+/g, ' ')
  expect(paragraph).toContain(`core's own ${COUNT[deps.length]} (`)
  for (const name of deps) expect(paragraph).toContain(`\`${name}\``)
})
