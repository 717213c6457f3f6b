// @nestor/tools from the packed tarball: a scripted exec reads a file inside the root, is refused
// one outside it, and runs a command whose environment holds none of the app's secrets.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers/testing'
import { fileTools, shellTool } from '@nestor/tools'

const root = mkdtempSync(join(tmpdir(), 'smoke-tools-'))
writeFileSync(join(root, 'notes.txt'), 'Lisbon in May\n')
process.env.SMOKE_SECRET = 'sk-smoke'
const call = (id, name, args) => ({ content: [{ type: 'toolCall', id, name, arguments: args }] })
const runtime = new Runtime({
  provider: scripted([
    call('c1', 'read_file', { path: 'notes.txt' }),
    call('c2', 'read_file', { path: '../outside.txt' }),
    call('c3', 'shell', { command: 'echo "[$SMOKE_SECRET]"' }),
    'done',
  ]),
  model: 'test-model',
  approve: () => true,
})
const result = await runtime.exec('go', { tools: [...fileTools({ root }), shellTool({ cwd: root, sandbox: 'none' })] })
const texts = result.history.filter((m) => m.role === 'toolResult').map((m) => [m.isError, m.content[0].text])
console.log(JSON.stringify({ status: result.status, results: texts }))
