import { verify, type HistoryItem, type Outcome, type Scenario } from '../scenario.js'
import type { Runner, Workload } from './types.js'

/** One hand-written loop: answers the scenario after `history`, counting the tool bodies it ran. */
export type Loop<M> = (scenario: Scenario, history: M[], counter: { calls: number }) => Promise<string>

/**
 * A runner around a hand-written loop (the floor, nestor-adapter): the prior conversation is
 * converted to the loop's message format once per workload (the caller's cost, not the loop's),
 * then each run is verified.
 */
export function loopRunner<M>(name: string, convert: (items: HistoryItem[]) => M[], loop: Loop<M>): Runner {
  const histories = new WeakMap<HistoryItem[], M[]>()
  return {
    name,
    supports: () => true,
    async run(workload: Workload): Promise<Outcome> {
      const counter = { calls: 0 }
      let history = histories.get(workload.history)
      if (!history) histories.set(workload.history, (history = convert(workload.history)))
      const text = await loop(workload.scenario, history, counter)
      const outcome = { toolCalls: counter.calls, text }
      verify(name, workload.scenario, outcome)
      return outcome
    },
  }
}
