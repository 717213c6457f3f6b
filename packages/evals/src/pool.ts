/** Runs `work(i)` for i in 0..count-1 with at most `limit` at once, in order of start; stops starting on abort. */
export async function pool(
  count: number,
  limit: number,
  work: (i: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0
  const lane = async () => {
    while (next < count && !signal?.aborted) await work(next++)
  }
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane))
}
