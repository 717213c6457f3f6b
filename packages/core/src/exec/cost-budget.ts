import { NestorError } from '../contract/errors.js'
import type { Message, ModelInfo, ModelRequest, ToolSpec } from '../contract/types.js'
import { costOf } from '../contract/usage.js'
import type { ExecContext } from './context.js'
import { priceBook } from './prices.js'

/**
 * The dollar budgets, checked before each live model call: what the exec (`maxCostUsd`) and the
 * tree (`maxTotalCostUsd`) spent, plus the most this call could cost (its estimated input at the
 * input price, its output cap at the output price), must stay within the limit. A call that could
 * pass it is not made. A model without a price cannot be budgeted: `invalid_options`.
 */
export async function checkCostBudgets(
  ctx: ExecContext,
  request: ModelRequest,
  // The window's token estimate (window/ sits above exec/ in core's floors, so the loop lends it).
  estimateTokens: (messages: Message[], request: { system?: string; tools?: ToolSpec[] }) => number,
): Promise<NestorError | undefined> {
  const own = ctx.env.maxCostUsd
  const tree = ctx.tree.maxTotalCostUsd
  if (own === undefined && tree === undefined) return undefined
  const { provider } = ctx.env
  const key = `${provider.name}:${request.model}`
  const info = await priceBook(ctx.env.host.options).lookup(provider, provider.name, request.model)
  if (!info?.prices)
    return new NestorError(
      'invalid_options',
      `invalid option ${own === undefined ? 'maxTotalCostUsd' : 'maxCostUsd'}: no price known for ${key} (add it with the Runtime option prices)`,
    )
  const input = estimateTokens(request.messages, {
    ...(request.system !== undefined && { system: request.system }),
    tools: request.tools,
  })
  const cap = outputCap(request, info, input)
  if (cap === undefined)
    return new NestorError(
      'invalid_options',
      `invalid option ${own === undefined ? 'maxTotalCostUsd' : 'maxCostUsd'}: the reply of ${key} has no known cap (set providerOptions.maxTokens)`,
    )
  const estimated = costOf({ input, output: cap, cacheRead: 0, cacheWrite: 0, total: input + cap }, info.prices).total
  const spent = ctx.state.usage.cost?.total ?? 0
  if (own !== undefined && spent + estimated > own)
    return exceeded('maxCostUsd', `exec ${ctx.execId}`, spent, estimated, own)
  if (tree !== undefined && ctx.tree.costUsd + estimated > tree)
    return exceeded('maxTotalCostUsd', 'the exec tree', ctx.tree.costUsd, estimated, tree)
  return undefined
}

/** The most the reply may hold: the request's maxTokens, the model's cap, or what the window leaves. */
function outputCap(request: ModelRequest, info: ModelInfo, input: number): number | undefined {
  const asked = request.options?.maxTokens ?? request.options?.max_tokens
  if (typeof asked === 'number' && asked > 0) return asked
  if (info.maxOutputTokens !== undefined) return info.maxOutputTokens
  return info.contextWindow === undefined ? undefined : Math.max(0, info.contextWindow - input)
}

function exceeded(
  budget: 'maxCostUsd' | 'maxTotalCostUsd',
  who: string,
  spent: number,
  estimated: number,
  limit: number,
): NestorError {
  const usd = (n: number) => `$${n.toFixed(6)}`
  return new NestorError(
    'budget_exceeded',
    `budget ${budget} exceeded: the next model call could cost ${usd(estimated)} on top of ${usd(spent)} spent by ${who}, over the limit of ${usd(limit)}`,
    { budget: { name: budget, spentUsd: spent, estimatedUsd: estimated, limitUsd: limit } },
  )
}
