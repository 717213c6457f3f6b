import { stat } from 'node:fs/promises'
import { fileJournals, type RecordedRuns } from './recorded.js'
import { postgresJournals, type Queryable } from './postgres.js'
import { serveStudio, type Studio } from './server.js'

export type CliIo = { stdout: (text: string) => void; stderr: (text: string) => void }

const USAGE = `usage: nestor-studio [--port N] [--table NAME] <journal file | journal folder | postgres://… | report.json>…
  Opens recorded runs (file journals, a Postgres journal table) and eval reports on a local page.
  --port N      default 4983 (0: any free port)
  --table NAME  the Postgres journal table (default nestor_journal)
`

export type RunningCli = { studio: Studio; close(): Promise<void> }

/**
 * Parses the arguments, opens the stores and serves the page; resolves with the running studio,
 * or with the exit code once it printed the usage (0 for --help) or the problem (2).
 */
export async function startCli(argv: string[], io: CliIo): Promise<RunningCli | number> {
  const refuse = (text: string) => {
    io.stderr(text)
    return 2
  }
  let port = 4983
  let table: string | undefined
  const files: string[] = []
  const reports: string[] = []
  const databases: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--help' || arg === '-h') {
      io.stdout(USAGE)
      return 0
    }
    if (arg === '--port' || arg === '--table') {
      const value = argv[++i]
      if (value === undefined) return refuse(`nestor-studio: ${arg} needs a value\n${USAGE}`)
      if (arg === '--table') table = value
      else if (/^\d{1,5}$/.test(value)) port = Number(value)
      else return refuse(`nestor-studio: --port takes a number, got ${value}\n`)
    } else if (/^postgres(ql)?:\/\//.test(arg)) databases.push(arg)
    else if (arg.startsWith('-')) return refuse(`nestor-studio: unknown option ${arg}\n${USAGE}`)
    else if (!(await stat(arg).catch(() => undefined))) return refuse(`nestor-studio: ${arg} does not exist\n`)
    else (arg.endsWith('.json') ? reports : files).push(arg)
  }
  if (files.length + reports.length + databases.length === 0) return refuse(USAGE)
  const recorded: RecordedRuns[] = files.length ? [fileJournals(files)] : []
  const pools: { end(): Promise<void> }[] = []
  for (const url of databases) {
    const pool = await openPool(url)
    if (typeof pool === 'string') return refuse(`nestor-studio: ${pool}\n`)
    pools.push(pool)
    recorded.push(postgresJournals(pool, table === undefined ? {} : { table }))
  }
  const studio = await serveStudio(undefined, { port, recorded, reports })
  io.stdout(`nestor studio — open ${studio.url}\n`)
  return {
    studio,
    async close() {
      await studio.close()
      for (const pool of pools) await pool.end()
    },
  }
}

/** A pg Pool on the URL; `pg` is an optional peer, loaded only for a Postgres journal. */
async function openPool(url: string): Promise<(Queryable & { end(): Promise<void> }) | string> {
  try {
    const pg = (await import('pg')) as unknown as {
      default: {
        Pool: new (options: { connectionString: string; max: number }) => Queryable & { end(): Promise<void> }
      }
    }
    return new pg.default.Pool({ connectionString: url, max: 2 })
  } catch {
    return 'reading a Postgres journal needs the pg package: npm install pg'
  }
}
