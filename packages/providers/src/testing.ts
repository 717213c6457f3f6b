// `@nestor/providers/testing`: providers that make no network call and need no SDK.
export { scripted } from './scripted/scripted.js'
export type { ScriptedTurn, ScriptedToolCall, ScriptedOptions, ScriptedProvider } from './scripted/scripted.js'
export { replay } from './replay/replay.js'
export type { ReplayOptions, ReplayMode, ReplayProvider } from './replay/replay.js'
export { canonicalRequest, requestKey, CASSETTE_VERSION } from './replay/cassette.js'
export type { Cassette, CanonicalRequest } from './replay/cassette.js'
