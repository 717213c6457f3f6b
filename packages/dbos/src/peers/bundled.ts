import * as dbos from '@dbos-inc/dbos-sdk'
import pg from 'pg'

// The peers for a bundle (the `#peers` import of package.json, under the `module` condition that
// bundlers set): plain imports the bundler includes, or fails the build naming the one missing.
export const loadPeer = (name: '@dbos-inc/dbos-sdk' | 'pg'): unknown => (name === 'pg' ? pg : dbos)

/** A bundle holds no file of DBOS's to read: the launched URL comes from the environment. */
export const dbosExecutorModule = (): unknown => undefined
