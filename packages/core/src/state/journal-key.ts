/**
 * A tool call id as one part of a journal key. The key joins parts with `/`, `:` and `#`, and the
 * idempotency key hashes it after a NUL: those (and `%`, the escape itself) are percent-encoded,
 * so an id can never reach across a separator and two calls never share a key. An id without
 * them is unchanged: journals recorded before this escape still replay.
 */
export const keyPart = (id: string): string =>
  /[%:#/\0]/.test(id) ? id.replace(/[%:#/\0]/g, (ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}`) : id
