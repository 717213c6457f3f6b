import { describe, expect, it } from 'vitest'
import { main as filesystem } from '../../examples/mcp/filesystem.js'
import { main as serveHttp } from '../../examples/mcp/serve-http.js'

// docs/mcp.md shows these files and their output.
describe('docs/mcp.md examples', () => {
  it('filesystem: the server tools list a temp dir and read a file in an exec', async () => {
    const lines: string[] = []
    const names = await filesystem((l) => lines.push(l))
    expect(names).toEqual(['fs_read_text_file', 'fs_write_file', 'fs_list_directory'])
    expect(lines).toEqual([
      'fs_list_directory → [FILE] todo.txt',
      'fs_read_text_file → buy milk\nwrite docs',
      'Two things to do: buy milk, write docs.',
    ])
  })

  it('serve-http: the SDK client lists and calls a served tool and agent', async () => {
    const lines: string[] = []
    await serveHttp((l) => lines.push(l))
    expect(lines).toEqual([
      'tools: word_count, poet',
      'progress: counting',
      'word_count: [{"type":"text","text":"3"}]',
      'poet: [{"type":"text","text":"Tools at rest, the loop sleeps."}]',
    ])
  })
})
