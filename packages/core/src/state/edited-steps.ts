// A fork's edit is written into the forked journal as a step (state/fork.ts), but nothing recorded
// it: its events say `edited: true` where a recorded step's say `replayed: true`, so a tree or a
// trace never shows a made-up result as what happened. The replayed copies carry the mark here.

const edited = new WeakSet<object>()

/** Marks the message or result replayed from an edited journal step. */
export function markEdited<T extends object>(value: T): T {
  edited.add(value)
  return value
}

/** How an event read from a journal is flagged: `edited` for a fork's edit, else `replayed`. */
export const journalFlag = (value: object): { replayed: true } | { edited: true } =>
  edited.has(value) ? { edited: true } : { replayed: true }
