import { z } from 'zod'
import { defineTool } from '@nestor/core'

/** A tool that needs approval and logs each body run into `ran` (`transfer {amount}`). */
export function transferTool(ran: string[]) {
  return defineTool({
    name: 'transfer',
    description: 'Move money',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => {
      ran.push(`transfer ${amount}`)
      return 'sent'
    },
  })
}
