// What both processes of the approval round trip define: the same tool (matched by name on
// resume) and a runtime with the same stateSecret.
import { z } from 'zod'
import { Runtime, defineTool, type Provider } from '@nestor/core'

export const STATE_SECRET = process.env.NESTOR_STATE_SECRET ?? 'example-only-secret-use-a-real-one'

export function deployTool(log: (line: string) => void) {
  return defineTool({
    name: 'deploy',
    description: 'Deploy a service to an environment',
    parameters: z.object({ service: z.string(), env: z.enum(['staging', 'production']) }),
    // Only production deploys wait for a person.
    needsApproval: ({ env }) => env === 'production',
    execute: ({ service, env }) => {
      log(`  [pid ${process.pid}] deploying ${service} to ${env}`)
      return `${service} is live on ${env}`
    },
  })
}

export const runtimeWith = (provider: Provider) => new Runtime({ provider, model: 'demo', stateSecret: STATE_SECRET })
