// @nestor/dbos from the packed tarball, without Postgres: with its peer installed, durable()
// registers a runtime's execs (DBOS is not launched); without it, what fails names the peer.
let out
try {
  const { Runtime } = await import('@nestor/core')
  const { scripted } = await import('@nestor/providers/testing')
  const { durable } = await import('@nestor/dbos')
  const execs = durable(new Runtime({ provider: scripted(['unused']), model: 'test' }), { name: 'smoke' })
  out = { registered: { name: execs.name, queueName: execs.queueName } }
} catch (error) {
  out = { error: { name: error?.name, code: error?.code, message: error?.message } }
}
console.log(JSON.stringify(out))
