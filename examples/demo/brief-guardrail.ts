import { defineGuardrail } from '@nestor/core'

/**
 * A saved brief must say what the trip costs: one without a euro figure goes back to the planner
 * as a rejected call (the model reads why and can write it again). It checks the arguments that
 * will run, so a brief a person edited at the approval is checked as edited.
 */
export const briefStatesCost = defineGuardrail({
  name: 'brief_states_cost',
  // Only the planner saves briefs: its nested execs (research, budget) are not checked.
  inherit: false,
  before: (call) =>
    call.name !== 'save_brief' || /€\s?\d/.test(String(call.arguments['body'] ?? ''))
      ? { pass: true }
      : { reject: 'the brief must state what the trip costs, in euros' },
})
