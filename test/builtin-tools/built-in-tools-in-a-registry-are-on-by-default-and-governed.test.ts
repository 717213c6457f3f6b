import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Runtime, ToolRegistry, type AgentEvent, type ApprovalRequest } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { fetchTool, fileTools, shellTool } from '@nestor/tools'
import { memoryTracing } from '../support/memory-tracing.js'
import { scratchDir } from '../support/scratch-dir.js'
import { toolEnds } from '../support/tool-results.js'

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  content: [{ type: 'toolCall' as const, id, name, arguments: args }],
})

describe('the built-in tools in a runtime', () => {
  it('are all on for an exec that names no tools; edits and commands wait for approval with a diff or the command; events, receipts and spans show each effect', async () => {
    const root = scratchDir('nestor-builtin-')
    writeFileSync(join(root, 'add.js'), 'export const add = (a, b) => a - b\n')
    const registry = new ToolRegistry().add(
      ...fileTools({ root }),
      shellTool({ cwd: root, sandbox: 'none' }),
      fetchTool(),
    )
    const provider = scripted([
      call('c1', 'read_file', { path: 'add.js' }),
      call('c2', 'edit_file', { path: 'add.js', old_string: 'a - b', new_string: 'a + b' }),
      call('c3', 'shell', { command: 'cat add.js; rm add.js' }),
      call('c4', 'read_file', { path: '../../etc/passwd' }),
      'Fixed add.',
    ])
    const approvals: ApprovalRequest[] = []
    const runtime = new Runtime({
      provider,
      model: 'test',
      registry,
      approve: (request) => {
        approvals.push(request)
        return request.toolName === 'edit_file' ? { approved: true } : { approved: false, reason: 'not now' }
      },
    })
    const tracing = memoryTracing()
    const stop = instrument(runtime, { tracer: tracing.tracer, captureContent: true })
    const events: AgentEvent[] = []
    runtime.on('*', (event) => void events.push(event))
    const result = await runtime.exec('Fix add.js')
    stop()

    expect(result.error).toBeUndefined()
    expect(result.status).toBe('completed')
    expect(provider.requests[0]!.tools?.map((t) => t.name)).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'list_files',
      'glob',
      'grep',
      'shell',
      'fetch',
    ])
    expect(approvals.map((a) => [a.toolName, a.preview])).toEqual([
      [
        'edit_file',
        '--- a/add.js\n+++ b/add.js\n@@ -1,1 +1,1 @@\n-export const add = (a, b) => a - b\n+export const add = (a, b) => a + b\n',
      ],
      ['shell', '$ cat add.js; rm add.js'],
    ])
    // The rejected command never ran: the file is there, edited.
    expect(readFileSync(join(root, 'add.js'), 'utf8')).toBe('export const add = (a, b) => a + b\n')

    const ends = toolEnds(events)
    expect(ends.map((e) => [e.toolName, e.receipt.status, e.receipt.approval])).toEqual([
      ['read_file', 'ok', { required: false }],
      ['edit_file', 'ok', { required: true, decision: 'approved' }],
      ['shell', 'rejected', { required: true, decision: 'rejected' }],
      ['read_file', 'tool_error', { required: false }],
    ])
    expect(ends[1]!.result.details).toEqual({
      effect: { kind: 'write', path: 'add.js', created: false, bytes: 35, added: 1, removed: 1 },
    })
    expect(ends[0]!.result.details).toMatchObject({ effect: { kind: 'read', path: 'add.js', totalLines: 1 } })
    expect(ends[3]!.result.content).toEqual([
      {
        type: 'text',
        text: 'refused: ../../etc/passwd is outside the root (paths are relative to the root, which they cannot leave)',
      },
    ])

    const toolSpans = tracing.spans().filter((s) => s.attributes['gen_ai.tool.name'] !== undefined)
    expect(toolSpans.map((s) => [s.attributes['gen_ai.tool.name'], s.attributes['nestor.receipt.status']])).toEqual([
      ['read_file', 'ok'],
      ['edit_file', 'ok'],
      ['shell', 'rejected'],
      ['read_file', 'tool_error'],
    ])
    expect(toolSpans[1]!.attributes['gen_ai.tool.call.result']).toBe('wrote add.js: 35 bytes (+1 -1 lines)')
  })
})

describe('an edit approved on a preview', () => {
  it('applies to the file as it is after the approval: a change made meanwhile is never overwritten', async () => {
    const root = scratchDir('nestor-builtin-')
    writeFileSync(join(root, 'a.txt'), 'one\n')
    const runtime = new Runtime({
      provider: scripted([call('c1', 'edit_file', { path: 'a.txt', old_string: 'one', new_string: 'two' }), 'ok']),
      model: 'test',
      approve: () => {
        // Someone edits the file while the approver looks at the diff.
        writeFileSync(join(root, 'a.txt'), 'uno\n')
        return true
      },
    })
    const events: AgentEvent[] = []
    runtime.on('tool_end', (event) => void events.push(event))
    await runtime.exec('edit', { tools: fileTools({ root }) })
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('uno\n')
    expect(toolEnds(events)[0]).toMatchObject({
      isError: true,
      receipt: { status: 'tool_error', approval: { required: true, decision: 'approved' } },
    })
  })
})
