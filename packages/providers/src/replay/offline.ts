// The offline mark lives in core, so agents (the conformance harness) can read it too.
export { offlineProvider, isOfflineProvider } from '@nestor/core/integration-kit'
