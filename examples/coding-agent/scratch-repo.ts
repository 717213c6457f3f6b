import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** A small repository with one bug: slugify joins only the first two words with a dash. */
const FILES: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'slugs', private: true, type: 'module', scripts: { test: 'node test/slugify.test.js' } }, null, 2)}\n`,
  'src/slugify.js': `// A title as a URL slug: lower case, words joined by single dashes.
export function slugify(title) {
  return title.trim().toLowerCase().replace(' ', '-')
}
`,
  // A runner of its own: its output has no timings or paths, so a recorded run replays exactly.
  'test/slugify.test.js': `import { slugify } from '../src/slugify.js'

const cases = [
  ['Hello', 'hello'],
  ['Hello World', 'hello-world'],
  ['  Lisbon in   May ', 'lisbon-in-may'],
]
let failed = 0
for (const [input, expected] of cases) {
  const got = slugify(input)
  if (got === expected) console.log(\`ok - slugify(\${JSON.stringify(input)})\`)
  else {
    failed++
    console.log(\`not ok - slugify(\${JSON.stringify(input)}): expected \${JSON.stringify(expected)}, got \${JSON.stringify(got)}\`)
  }
}
console.log(\`\${cases.length - failed} of \${cases.length} passed\`)
process.exitCode = failed ? 1 : 0
`,
}

/** Writes the repository into `dir` (which must exist and be empty). */
export function writeScratchRepo(dir: string): void {
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
}
