import { afterEach, describe, expect, it, vi } from 'vitest'
import { main as filesystem } from '../../examples/mcp/filesystem.js'
import { main as serveHttp } from '../../examples/mcp/serve-http.js'
import { guide, runExample } from '../support/doc-example.js'

/** The guide's runnable block that serves notes (resources, prompts, a question). */
const notesServer = [...guide('mcp.md').matchAll(/```ts\n(\/\/ runnable\n[\s\S]*?)```/g)]
  .map((m) => m[1]!)
  .find((code) => code.includes('notes://{id}'))

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

  describe('the worked server', () => {
    afterEach(() => vi.restoreAllMocks())
    it('completes, reads, prompts, notifies a subscriber and asks before it writes, as its comments say', async () => {
      const printed: string[] = []
      vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line))
      await runExample(notesServer!, 'mcp-notes-')
      expect(printed).toEqual([
        'groceries, garden',
        'water the roses',
        'resource, text',
        'asked: Empty the note garden?',
        '[{"type":"text","text":"emptied"}]',
      ])
    })
  })
})
