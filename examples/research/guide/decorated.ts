// docs/agents.md § Writing an agent: an Agent subclass whose @tool methods are its tools.
// Run: npx tsc -b && node examples/dist/research/guide/decorated.js
import { Agent, tool } from '@nestor/agents'
import { Runtime, type ExecResult } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { z } from 'zod'
import { isMain } from './run-as-script.js'

class Weather extends Agent {
  instructions = 'You answer weather questions with the forecast tool.'
  constructor(private readonly forecasts: Record<string, string>) {
    super()
  }

  @tool({ description: 'Forecast for a city', parameters: z.object({ city: z.string() }) })
  forecast({ city }: { city: string }) {
    return this.forecasts[city] ?? 'unknown city'
  }
}

export async function main(log: (line: string) => void = console.log): Promise<ExecResult> {
  const provider = scripted([
    { content: [{ type: 'toolCall', name: 'forecast', arguments: { city: 'Oslo' } }] },
    'Oslo: light snow, -2°C.',
  ])
  const runtime = new Runtime({ provider, model: 'demo' })
  // The instance expands to its @tool methods; `this` in forecast() is this instance.
  const result = await runtime.exec('Weather in Oslo?', { tools: [new Weather({ Oslo: 'snow, -2°C' })] })
  log(JSON.stringify(provider.requests[0]!.tools[0]))
  log(result.text)
  return result
}

if (isMain(import.meta.url)) await main()
