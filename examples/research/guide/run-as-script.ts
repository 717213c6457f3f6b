import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** True when the module at `url` is the script node was started with (not imported by a test). */
export const isMain = (url: string): boolean =>
  !!process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(url)
