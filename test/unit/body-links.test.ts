import {describe, expect, it} from 'vitest'
import {bodyLinks} from '../../src/domain/lint.js'

describe('body links', () => {
  it('are card ids in [[…]]; a file reference (Kiro #[[file:…]], a file name) is not a card link', () => {
    const body =
      'See [[db-index-large-table]] and [[cache-keys|the cache card]].\n#[[file:CONTRIBUTING.md]] [[mdc:rules/a.mdc]] [[TESTING.md]]'
    expect(bodyLinks(body)).toEqual(['db-index-large-table', 'cache-keys'])
  })
})
