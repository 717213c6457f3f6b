// `@nestor/core/provider-kit`: the older name of `@nestor/core/integration-kit`, kept so imports
// written against it go on working. Same names, same objects.
export * from './integration-kit.js'
