import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The recorded wire fixtures live beside the checkout, never in it. Tests skip when absent. */
export const sharedWireDir = fileURLToPath(new URL('../../../shared/fixtures/wire/', import.meta.url))
export const hasSharedWire = existsSync(sharedWireDir + 'index.json')
export const readShared = (relative: string): string => readFileSync(sharedWireDir + relative, 'utf8')
export const readSharedJson = <T = unknown>(relative: string): T => JSON.parse(readShared(relative)) as T
