import { defineGuardrail } from '@nestor/core'

// A card number in a prompt never reaches the model's tools: the page shows the trip as a step.
const CARD = /\b(?:\d[ -]?){13,16}\b/

/** Trips when the request holds something shaped like a payment card number. */
export const noCardNumbers = defineGuardrail({
  name: 'no_card_numbers',
  check: (text) => (CARD.test(text) ? { tripwire: true, reason: 'the request holds a card number' } : { pass: true }),
})
