import { readFileSync } from 'node:fs'
import { adapterFeatures, featuresTable } from '@nestor/providers'
import { describe, expect, it } from 'vitest'

const doc = readFileSync(new URL('../../docs/providers.md', import.meta.url), 'utf8')

describe('docs/providers.md: the adapters × features table', () => {
  it('holds exactly the table rendered from every adapter’s declared features', () => {
    expect(doc).toContain(featuresTable(adapterFeatures))
  })

  it('declares every network adapter once, with a non-empty cell in every column', () => {
    expect(adapterFeatures).toHaveLength(6)
    for (const features of adapterFeatures) {
      for (const [column, value] of Object.entries(features))
        expect(
          value === false || value === true || (typeof value === 'string' && value.trim() !== ''),
          `${features.adapter}.${column}`,
        ).toBe(true)
    }
    expect(new Set(adapterFeatures.map((f) => f.adapter)).size).toBe(adapterFeatures.length)
  })

  it('a changed declaration no longer matches the page (the check can fail)', () => {
    const changed = adapterFeatures.map((f, i) => (i === 0 ? { ...f, files: 'data, URL' } : f))
    expect(doc).not.toContain(featuresTable(changed))
  })
})
