// docs/mcp.md § Tools from an MCP server: the reference filesystem server's tools in an exec.
// Run: npx tsc -b && node examples/dist/mcp/filesystem.js
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Runtime } from '@nestor/core'
import { mcpTools } from '@nestor/mcp'
import { scripted } from '@nestor/providers'

/** The installed server's entry script; `npx -y @modelcontextprotocol/server-filesystem <dir>` works too. */
function filesystemServerScript(): string {
  const manifest = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/package.json')
  return join(dirname(manifest), 'dist/index.js')
}

export async function main(log: (line: string) => void = console.log): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'nestor-mcp-example-'))
  await writeFile(join(dir, 'todo.txt'), 'buy milk\nwrite docs\n')
  const fs = await mcpTools(
    { command: process.execPath, args: [filesystemServerScript(), dir], stderr: 'ignore' },
    { prefix: 'fs_', include: ['list_directory', 'read_text_file', 'write_file'], needsApproval: { write_file: true } },
  )
  try {
    // A scripted model stands in for a real one: it lists the directory, reads a file, answers.
    const provider = scripted([
      { content: [{ type: 'toolCall', name: 'fs_list_directory', arguments: { path: dir } }] },
      { content: [{ type: 'toolCall', name: 'fs_read_text_file', arguments: { path: join(dir, 'todo.txt') } }] },
      'Two things to do: buy milk, write docs.',
    ])
    const runtime = new Runtime({ provider, model: 'demo' })
    const run = runtime.exec('What is on my todo list?', { tools: fs.tools })
    for await (const event of run) {
      if (event.type === 'tool_end')
        log(
          `${event.toolName} → ${event.result.content
            .map((c) => (c.type === 'text' ? c.text : c.type))
            .join(' ')
            .trim()}`,
        )
    }
    const result = await run
    log(result.text)
    return fs.tools.map((t) => t.spec.name)
  } finally {
    await fs.close()
    await rm(dir, { recursive: true, force: true })
  }
}

// Run as a script (node dist/…/this.js), not when a test imports main().
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main()
