import {describe, expect, it} from 'vitest'
import {checkSlug, distinctSlug, SLUG_MAX, SLUG_MIN, STOP_WORDS, suggestSlug} from '../../src/domain/card/slug.js'

describe('checkSlug', () => {
  it('accepts the passing examples of seed 000', () => {
    expect(checkSlug('wave-1-parallel-task-dag')).toBeUndefined()
    expect(checkSlug('deepmerge-array-replace-trap')).toBeUndefined()
  })

  it('accepts the length bounds exactly and rejects one character outside', () => {
    expect(SLUG_MIN).toBe(20)
    expect(SLUG_MAX).toBe(40)
    expect(checkSlug('abcdefghij-klmnopqrs')).toBeUndefined() // 20
    expect(checkSlug('abcdefghijklmnopqrst-abcdefghijklmnopqrs')).toBeUndefined() // 40
    expect(checkSlug('abcdefghi-klmnopqrs')?.rule).toBe('length') // 19
    expect(checkSlug('abcdefghijklmnopqrst-abcdefghijklmnopqrst')?.rule).toBe('length') // 41
  })

  it('rule 1: `the_solution` breaks kebab-case (checked before the article)', () => {
    expect(checkSlug('the_solution')).toEqual({
      rule: 'kebab-case',
      message: 'slug "the_solution" breaks rule 1 (kebab-case: lowercase letters, digits and single hyphens only)',
    })
  })

  it('a suggestion is offered only when it keeps every rule itself', () => {
    // "bad-slug" would break rule 3 (too short): no suggestion rather than one that is refused next.
    expect(checkSlug('The-Bad_Slug')).toEqual({
      rule: 'kebab-case',
      message: 'slug "The-Bad_Slug" breaks rule 1 (kebab-case: lowercase letters, digits and single hyphens only)',
    })
    expect(checkSlug('Stage_Only-Touched_Paths')?.suggestion).toBe('stage-only-touched-paths')
    for (const slug of [
      'the_solution',
      '../../etc/passwd',
      'DeepMerge-Array-Replace-Trap',
      'how-we-decided-to-handle-merge-conflict-in-stop-hook-config',
    ]) {
      const hint = checkSlug(slug)?.suggestion
      if (hint) expect(checkSlug(hint), slug).toBeUndefined()
    }
  })

  it('rule 1: uppercase, double, leading and trailing hyphens are not kebab-case', () => {
    for (const slug of [
      'DeepMerge-Array-Replace-Trap',
      'deepmerge--array-replace',
      '-deepmerge-array-replace',
      'deepmerge-array-replace-',
    ]) {
      const problem = checkSlug(slug)
      expect(problem?.rule, slug).toBe('kebab-case')
      expect(problem?.message, slug).toContain('breaks rule 1 (kebab-case')
    }
    expect(checkSlug('DeepMerge-Array-Replace-Trap')?.suggestion).toBe('deep-merge-array-replace-trap')
  })

  it('rule 1: a path-traversal slug fails kebab-case', () => {
    expect(checkSlug('../../etc/passwd')).toEqual({
      rule: 'kebab-case',
      message: 'slug "../../etc/passwd" breaks rule 1 (kebab-case: lowercase letters, digits and single hyphens only)',
    })
  })

  it('rule 2: `fix` has one word; no suggestion differs from the slug', () => {
    expect(checkSlug('fix')).toEqual({
      rule: 'word-count',
      message: 'slug "fix" breaks rule 2 (2–5 words; it has 1)',
      suggestion: undefined,
    })
  })

  it('rule 2: more than five words', () => {
    const slug = 'how-we-decided-to-handle-merge-conflict-in-stop-hook-config'
    const problem = checkSlug(slug)
    expect(problem).toEqual({
      rule: 'word-count',
      message: `slug "${slug}" breaks rule 2 (2–5 words; it has 11)`,
      suggestion: 'how-we-decided-to-handle',
    })
    expect(checkSlug(problem!.suggestion!)).toBeUndefined()
  })

  it('rule 3: too long with five words, and too short with two', () => {
    const long = 'extraordinarily-complicated-configuration-merging-behaviour'
    expect(checkSlug(long)).toEqual({
      rule: 'length',
      message: `slug "${long}" breaks rule 3 (20–40 characters; it has 59)`,
      suggestion: 'extraordinarily-complicated',
    })
    expect(checkSlug('extraordinarily-complicated')).toBeUndefined()
    expect(checkSlug('fix-bug')).toEqual({
      rule: 'length',
      message: 'slug "fix-bug" breaks rule 3 (20–40 characters; it has 7)',
      suggestion: undefined,
    })
  })

  it('rule 4: the overlong seed example is rejected, first for its article', () => {
    const slug = 'how-we-decided-to-handle-the-merge-conflict-in-stop-hook-config'
    const problem = checkSlug(slug)
    expect(problem).toEqual({
      rule: 'semantic-core',
      message: `slug "${slug}" breaks rule 4 (semantic core only: drop "the")`,
      suggestion: 'how-we-decided-to-handle',
    })
    expect(checkSlug(problem!.suggestion!)).toBeUndefined()
  })

  it('rule 4: filler words are named, all of them', () => {
    expect(checkSlug('misc-config-stuff-for-hooks')).toEqual({
      rule: 'semantic-core',
      message: 'slug "misc-config-stuff-for-hooks" breaks rule 4 (semantic core only: drop "misc", "stuff")',
    })
    // Without its filler it is "config-for-hooks", 16 characters: too short to offer.
    expect(checkSlug('misc-merge-config-stuff-for-hooks')?.suggestion).toBe('merge-config-for-hooks')
  })
})

describe('every rule suggests a valid slug, cut at whole words and never on a stop word (issue 34)', () => {
  it('the filler word goes first, then trailing words, and "in" is not left dangling', () => {
    const problem = checkSlug('lockfile-drift-after-a-rebase-in-ci-pipeline')
    expect(problem).toEqual({
      rule: 'semantic-core',
      message: 'slug "lockfile-drift-after-a-rebase-in-ci-pipeline" breaks rule 4 (semantic core only: drop "a")',
      suggestion: 'lockfile-drift-after-rebase',
    })
  })

  it('too many words: trailing words go whole, and a preposition left at the end goes too', () => {
    expect(checkSlug('stale-cache-entries-after-deploy-on-friday')?.suggestion).toBe('stale-cache-entries-after-deploy')
    expect(checkSlug('drift-in-lockfile-when-rebasing-with-merge')?.suggestion).toBe('drift-in-lockfile-when-rebasing')
  })

  it('too long in five words: whole words go from the end, never a cut word', () => {
    expect(checkSlug('internationalisation-of-configuration-files-loader')).toEqual({
      rule: 'length',
      message: 'slug "internationalisation-of-configuration-files-loader" breaks rule 3 (20–40 characters; it has 50)',
      suggestion: 'internationalisation-of-configuration',
    })
  })

  it('kebab-case: the same words in lowercase, joined by single hyphens', () => {
    expect(checkSlug('Lockfile_Drift  After--Rebase')?.suggestion).toBe('lockfile-drift-after-rebase')
  })

  it('too short or one word: the title gives the missing words', () => {
    const title = 'Regenerate the lockfile after a rebase'
    expect(checkSlug('lockfile', title)).toEqual({
      rule: 'word-count',
      message: 'slug "lockfile" breaks rule 2 (2–5 words; it has 1)',
      suggestion: 'lockfile-regenerate-after-rebase',
    })
    expect(checkSlug('fix-bug', 'Fix the flaky login test on CI')?.suggestion).toBe('fix-bug-flaky-login-test')
    // A path has no words worth keeping: the title's come first.
    expect(checkSlug('../../etc/passwd', title)?.suggestion).toBe('regenerate-lockfile-after-rebase')
    // Nothing to lengthen it with: no suggestion rather than an invalid one.
    expect(checkSlug('fix-bug')?.suggestion).toBeUndefined()
    expect(checkSlug('fix-bug', '修复登录测试')?.suggestion).toBeUndefined()
  })

  it('every suggestion keeps every rule, whatever the slug and title', () => {
    const slugs = [
      'a-b',
      'the-a-an',
      'x',
      'UPPER_case_Slug-with-MANY-words-in-it',
      'one-two-three-four-five-six-seven-eight',
      'supercalifragilisticexpialidocious-and-more-words',
      'fix-bug-in',
    ]
    const titles = [undefined, 'Fix the flaky login test', 'When rebasing, regenerate the lockfile', 'in on at']
    for (const slug of slugs)
      for (const title of titles) {
        const hint = checkSlug(slug, title)?.suggestion
        if (!hint) continue
        expect(checkSlug(hint), `${slug} / ${title}`).toBeUndefined()
        expect(STOP_WORDS.has(hint.split('-').at(-1)!), hint).toBe(false)
      }
  })
})

describe('distinctSlug: rule 5, a slug another card holds', () => {
  it('adds a word of the title the slug does not say, or gives its last word way to one, and skips what is taken', () => {
    const none = () => false
    expect(distinctSlug('lockfile-drift-on-rebase', 'Lockfile drift in CI after a rebase', none)).toBe(
      'lockfile-drift-on-rebase-ci',
    )
    const taken = (s: string) => s === 'lockfile-drift-on-rebase-ci'
    expect(distinctSlug('lockfile-drift-on-rebase', 'Lockfile drift in CI after a rebase', taken)).toBe(
      'lockfile-drift-on-ci',
    )
    // Five words already: the last gives way.
    expect(distinctSlug('stale-cache-entries-after-deploy', 'Stale cache entries after a Friday deploy', none)).toBe(
      'stale-cache-entries-after-friday',
    )
    // Nothing in the title the slug does not already say.
    expect(distinctSlug('deepmerge-array-replace-trap', 'deepMerge replaces arrays', none)).toBeUndefined()
  })
})

describe('suggestSlug', () => {
  it('turns a title into a valid slug', () => {
    const s = suggestSlug('The deepMerge array-replace trap!')
    expect(s).toBe('deep-merge-array-replace-trap')
    expect(checkSlug(s)).toBeUndefined()
  })

  it('strips accents and keeps at most five words', () => {
    expect(suggestSlug('Café crème brûlée recipe')).toBe('cafe-creme-brulee-recipe')
    expect(suggestSlug('one two three four five six seven')).toBe('one-two-three-four-five')
  })

  it('never exceeds the maximum length', () => {
    const s = suggestSlug('internationalisation localisation configuration orchestration')
    expect(s).toBe('internationalisation-localisation')
    expect(s.length).toBeLessThanOrEqual(SLUG_MAX)
  })

  it('is best effort: may return something still too short, or nothing', () => {
    expect(suggestSlug('fix')).toBe('fix')
    expect(suggestSlug('the stuff')).toBe('')
  })
})
