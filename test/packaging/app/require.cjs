// A CommonJS app: require() of the ESM packages (Node >= 20.19, require(esm)).
const { Runtime } = require('@nestor/core')
const { scripted } = require('@nestor/providers/testing')

new Runtime({ provider: scripted(['hello from require']), model: 'test' })
  .exec('hi')
  .then((result) => console.log(JSON.stringify({ text: result.text })))
