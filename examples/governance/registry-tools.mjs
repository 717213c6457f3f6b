// The callables registry.yaml names: plain exported functions, (args, ctx) => result.
const orders = { 'A-100': { status: 'delivered', total: 42 } }

export function lookupOrder({ orderId }) {
  const order = orders[orderId]
  if (!order) throw new Error(`no order ${orderId}`)
  return { orderId, ...order }
}

export function issueRefund({ orderId }) {
  return `refunded ${orders[orderId]?.total ?? 0} on ${orderId}`
}
