import { NestorError } from '@nestor/core'

export type CliArgs = {
  files: string[]
  filter?: string
  concurrency?: number
  trials?: number
  json?: string
  html?: string
  updateBaseline: boolean
  record: boolean
  offline: boolean
  help: boolean
}

const VALUED = new Set(['filter', 'concurrency', 'trials', 'json', 'html'])
const FLAGS = new Set(['update-baseline', 'record', 'offline', 'help'])

export const USAGE = `usage: nestor-eval [files or folders…] [options]
  runs every *.eval.js / *.eval.ts file given (default: those under the current folder)
  --filter TEXT        only the cases whose id or input contains TEXT
  --concurrency N      cases at once (overrides the eval's own)
  --trials N           runs of each case (overrides the eval's own)
  --json PATH          write the report as JSON (a file, or a folder for several evals)
  --html PATH          write the report as one HTML page (a file, or a folder)
  --update-baseline    write the report to the eval's baseline file instead of comparing with it
  --record             re-record every case's cassettes live (needs the eval's provider)
  --offline            replay cassettes only: a case without one fails cassette_missing
exit code: 0 all passed, 1 a threshold, the baseline or a cassette was missed, 2 bad usage`

const positiveInt = (flag: string, text: string) => {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1)
    throw new NestorError('invalid_options', `--${flag} takes a positive integer, got ${text}`)
  return n
}

export function parseArgs(argv: string[]): CliArgs {
  const args: CliArgs = { files: [], updateBaseline: false, record: false, offline: false, help: false }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) {
      args.files.push(arg)
      continue
    }
    const [flag, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
    if (FLAGS.has(flag)) {
      if (flag === 'update-baseline') args.updateBaseline = true
      else args[flag as 'record' | 'offline' | 'help'] = true
      continue
    }
    if (!VALUED.has(flag)) throw new NestorError('invalid_options', `unknown option --${flag}\n${USAGE}`)
    const value = inline ?? argv[++i]
    if (value === undefined || value === '') throw new NestorError('invalid_options', `--${flag} needs a value`)
    if (flag === 'concurrency' || flag === 'trials') args[flag] = positiveInt(flag, value)
    else args[flag as 'filter' | 'json' | 'html'] = value
  }
  if (args.record && args.offline) throw new NestorError('invalid_options', '--record and --offline exclude each other')
  return args
}
