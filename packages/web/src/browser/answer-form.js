// The form for a question a tool asked (ctx.ask, an `input_required` event): one field per property
// of the question's JSON Schema (a checkbox for a boolean, a number box, a list for an enum, a text
// box otherwise), posted as `POST /api/runs/{execId}/answer { id, value }`. docs/asking.md
'use strict'

/** The card for one question, with its form; `post(action, body)` sends it for the page's run. */
function questionCard(input, post) {
  const card = document.createElement('form')
  card.className = 'question'
  card.dataset.inputId = input.id
  card.dataset.toolCallId = input.toolCallId
  const title = document.createElement('strong')
  title.textContent = input.question
  card.append(title)
  const fields = fieldsOf(input.schema)
  for (const field of fields) card.append(field.label)
  const send = document.createElement('button')
  send.type = 'submit'
  send.className = 'answer'
  send.textContent = 'Answer'
  const note = document.createElement('div')
  note.className = 'meta'
  card.append(send, note)
  card.addEventListener('submit', async (e) => {
    e.preventDefault()
    send.disabled = true
    note.textContent = ''
    const value = Object.fromEntries(fields.flatMap((f) => (f.read() === undefined ? [] : [[f.name, f.read()]])))
    const response = await post('answer', { id: input.id, value })
    if (response.ok) return card.classList.add('sent')
    const { error } = await response.json()
    note.textContent = [error?.message ?? `HTTP ${response.status}`, ...(error?.issues ?? [])].join(' · ')
    send.disabled = false
  })
  return card
}

/** One input per property of an object schema, each with how to read its value. */
function fieldsOf(schema) {
  const properties = schema?.type === 'object' && schema.properties ? schema.properties : {}
  return Object.entries(properties).map(([name, property]) => {
    const label = document.createElement('label')
    label.textContent = `${property.description ?? name} `
    let input
    if (Array.isArray(property.enum)) {
      input = document.createElement('select')
      for (const option of property.enum) input.append(new Option(String(option), String(option)))
    } else {
      input = document.createElement('input')
      input.type = property.type === 'boolean' ? 'checkbox' : property.type === 'string' ? 'text' : 'number'
    }
    input.name = name
    label.append(input)
    const read = () => {
      if (property.type === 'boolean') return input.checked
      if (input.value === '') return undefined
      return property.type === 'number' || property.type === 'integer' ? Number(input.value) : input.value
    }
    return { name, label, read }
  })
}

window.questionCard = questionCard
