/**
 * Runs `work(0)` … `work(count - 1)`, starting them in order, at most `width` at once. A work that
 * throws stops new ones from starting; the pool settles once every started one has, rejecting with
 * the first throw.
 */
export async function inPool(count: number, width: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0
  let failed: { error: unknown } | undefined
  const worker = async (): Promise<void> => {
    while (next < count) {
      try {
        await work(next++)
      } catch (error) {
        failed ??= { error }
        next = count
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker))
  if (failed) throw failed.error
}
