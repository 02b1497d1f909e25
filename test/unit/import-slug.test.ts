import {describe, expect, it} from 'vitest'
import {discriminated} from '../../src/domain/import/pipeline.js'
import {fileWords, fillWords, importSlug, slugWords} from '../../src/domain/import/source.js'
import {checkSlug} from '../../src/domain/card/slug.js'

describe('import slugs', () => {
  it('reads a Chinese heading as pinyin words, Latin words as they are, function words left out', () => {
    expect(slugWords('测试规范')).toEqual(['ceshi', 'guifan'])
    expect(slugWords('使用 UTC 存储时间')).toEqual(['shiyong', 'utc', 'cunchu', 'shijian'])
    expect(slugWords('代码风格与命名约定')).toEqual(['daima', 'fengge', 'mingming', 'yueding'])
    expect(slugWords('Code style')).toEqual(['code', 'style'])
    // A name in camel case stays one word; words that only join others are left out.
    expect(slugWords('Follow the TypeSpec style on GitHub')).toEqual(['follow', 'typespec', 'style', 'github'])
    expect(slugWords('Your primary responsibility is to the project')).toEqual(['primary', 'responsibility', 'project'])
  })

  it('names a nested CLAUDE.md or AGENTS.md by its folder, other files by their own name', () => {
    expect(fileWords('services/billing/AGENTS.md')).toEqual(['billing', 'agents'])
    expect(fileWords('CLAUDE.md')).toEqual(['claude'])
    expect(fileWords('.github/copilot-instructions.md')).toEqual(['copilot'])
    expect(fileWords('.kiro/steering/产品概述.md')).toEqual(['chanpin', 'gaishu'])
  })

  it('completes a short slug with the rule’s own words, never padding words, and keeps every slug rule', () => {
    const cases: [string[], string, string, string][] = [
      [['claude'], 'Testing', 'Run `npm test` before you push.', 'claude-testing-run-npm'],
      [['claude'], '注释规范', '所有的注释都要使用中文。', 'claude-zhushi-guifan'],
      [['agents'], 'Commits', 'Always write Conventional Commits messages.', 'agents-commits-write'],
    ]
    for (const [file, heading, body, slug] of cases) {
      const got = importSlug(file, slugWords(heading), ['imported'], fillWords('', body))
      expect(got).toBe(slug)
      expect(checkSlug(got)).toBeUndefined()
    }
    // Only a piece with no words of its own is padded.
    expect(importSlug(['claude'], ['tests'], ['imported'], [])).toBe('claude-tests-imported')
  })

  it('a word too long for a name is cut, and a word that does not fit gives way to the shorter ones after it', () => {
    const long = 'averyveryverylongfilenamewithoutanyseparatorsatall'
    const got = importSlug([long], ['testing'], ['imported', 'team', 'guidance'])
    expect(got).toBe('averyveryverylongfilenamewitho-testing')
    expect(checkSlug(got)).toBeUndefined()
    expect(importSlug(['claude'], ['internationalisation', 'configuration', 'cli'], [])).toBe(
      'claude-internationalisation-cli',
    )
    const padded = importSlug([long.slice(0, 31)], [], ['imported', 'team', 'guidance'])
    expect(padded).toBe('averyveryverylongfilenamewitho-imported')
    expect(checkSlug(padded)).toBeUndefined()
  })

  it('a discriminator replaces the last words that would overflow, grows a short slug, and skips a taken one', () => {
    const key = 'import:CLAUDE.md#testing'
    const long = 'claude-internationalisation-configuration'
    const cases = [
      long,
      'claude-testing-run-npm',
      'a1-b1-c1-d1-eeeeeeeeeeee',
      'averyveryverylongfilenamewitho-imported',
    ]
    const got = cases.map(slug => discriminated(slug, key, new Set([slug])))
    expect(got).toEqual([
      'claude-internationalisation-k4843c',
      'claude-testing-run-npm-k4843c',
      'a1-b1-c1-d1-k4843cc6',
      'averyveryverylongfilenamewitho-k4843c',
    ])
    for (const slug of got) expect(checkSlug(slug)).toBeUndefined()
    const taken = new Set(['claude-testing-run-npm', 'claude-testing-run-npm-k4843c'])
    expect(discriminated('claude-testing-run-npm', key, taken)).toBe('claude-testing-run-npm-k4843cc')
  })
})
