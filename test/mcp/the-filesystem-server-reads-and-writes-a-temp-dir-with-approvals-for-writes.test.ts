import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Runtime, type ApprovalRequest } from '@nestor/core'
import { mcpTools, type McpTools } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calls, historyProblems } from '../support/run.js'
import { filesystemServer, textOfResult, toolResults } from '../support/mcp-servers.js'

// @modelcontextprotocol/server-filesystem, confined to a temp dir, over stdio.
describe('the filesystem server through a Nestor exec', () => {
  let dir: string
  let mcp: McpTools
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'nestor-mcp-fs-')))
    await writeFile(join(dir, 'notes.txt'), 'first line\nsecond line\n')
    mcp = await mcpTools(filesystemServer(dir), {
      prefix: 'fs_',
      exclude: ['move_file'],
      needsApproval: (tool) => tool.annotations?.readOnlyHint !== true,
    })
  })
  afterAll(async () => {
    await mcp?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('offers the allowed tools under the prefix and leaves excluded ones out', () => {
    const names = mcp.tools.map((t) => t.spec.name)
    expect(names).toEqual(expect.arrayContaining(['fs_read_text_file', 'fs_write_file', 'fs_list_directory']))
    expect(names).not.toContain('fs_move_file')
  })

  it('reads a file, and asks for approval before a write (not before a read)', async () => {
    const asked: ApprovalRequest[] = []
    const provider = scripted([
      calls({ name: 'fs_read_text_file', args: { path: join(dir, 'notes.txt'), head: 1 } }),
      calls({ name: 'fs_write_file', args: { path: join(dir, 'out.txt'), content: 'written by nestor' } }),
      'done',
    ])
    const runtime = new Runtime({ provider, model: 'm', approve: (request) => (asked.push(request), true) })
    const result = await runtime.exec('go', { tools: mcp.tools })

    expect(historyProblems(result.history)).toEqual([])
    const [read, write] = toolResults(result.history)
    expect(textOfResult(read!)).toBe('first line')
    expect(read!.details).toEqual({ content: 'first line' })
    expect(write).toMatchObject({ isError: false })
    expect(asked.map((a) => a.toolName)).toEqual(['fs_write_file'])
    expect(await readFile(join(dir, 'out.txt'), 'utf8')).toBe('written by nestor')
  })

  it('a path outside the allowed directory comes back as an error result', async () => {
    const provider = scripted([calls({ name: 'fs_read_text_file', args: { path: '/etc/hostname' } }), 'ok'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: mcp.tools })
    const [denied] = toolResults(result.history)
    expect(denied).toMatchObject({ isError: true })
    expect(textOfResult(denied!)).toMatch(/outside allowed directories|Access denied/i)
    expect(result.receipts[0]).toMatchObject({ status: 'tool_error' })
  })
})
