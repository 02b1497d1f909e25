import {describe, expect, it} from 'vitest'
import {mentionSpans} from '../../src/recall/match/context.js'
import {normText, phraseOccurrences} from '../../src/recall/match/phrase.js'
import {stem, tokenize} from '../../src/recall/match/tokenize.js'

const terms = (s: string) => tokenize(s).map(t => t.term)

describe('tokeniser', () => {
  it('English: NFKC, lowercase, Porter2 stems, stop words weigh nothing', () => {
    const t = tokenize('Validate the Staged Entries')
    expect(t.map(x => x.term)).toEqual(['valid', 'the', 'stage', 'entri'])
    expect(t.map(x => x.weight)).toEqual([1, 0, 1, 1])
    expect(terms('ＵＩ Ｔｅｓｔｓ')).toEqual(['ui', 'test'])
    expect(['validation', 'validated', 'validating', 'validate'].map(stem)).toEqual([
      'valid',
      'valid',
      'valid',
      'valid',
    ])
    expect(['status', 'process', 'committing', 'commits'].map(stem)).toEqual(['status', 'process', 'commit', 'commit'])
  })

  it('Chinese: a CJK run becomes unigrams plus bigrams, function characters weigh nothing', () => {
    const t = tokenize('删除前确认')
    expect(t.map(x => `${x.term}/${x.kind}`)).toEqual([
      '删/uni',
      '删除/bi',
      '除/uni',
      '除前/bi',
      '前/uni',
      '前确/bi',
      '确/uni',
      '确认/bi',
      '认/uni',
    ])
    expect(tokenize('的').map(x => x.weight)).toEqual([0])
    expect(tokenize('可以').find(x => x.kind === 'bi')!.weight).toBe(0)
  })

  it('mixed text: Latin words and CJK runs split at the script boundary; technical tokens stay whole too', () => {
    expect(terms('把dataDir迁移到 DESIGN.md')).toEqual([
      '把',
      'datadir',
      '迁',
      '迁移',
      '移',
      '移到',
      '到',
      'design',
      'md',
      'design.md',
    ])
    expect(terms('用 /goal 和 goal.start')).toEqual(['用', 'goal', '/goal', '和', 'goal', 'start', 'goal.start'])
    expect(terms('provider-neutral hook')).toEqual(['provid', 'neutral', 'provider-neutral', 'hook'])
  })

  it('phrases match on Latin word boundaries, CJK anywhere in a run', () => {
    expect(phraseOccurrences(normText('Push to GitHub'), 'git')).toEqual([])
    expect(phraseOccurrences(normText('run git status now'), 'git status')).toEqual([4])
    expect(phraseOccurrences(normText('请只改文档吧'), '只改文档')).toEqual([1])
  })

  it('mention spans: classification negations and examples run to the end of the clause; prohibitions are not mentions', () => {
    const text = normText('这不是 provider adapter、hook 边界任务。比如当我说创建目标时，Do not fork retrieval')
    expect(mentionSpans(text).map(s => [s.kind, text.slice(s.start, s.end)])).toEqual([
      ['negated', '不是 provider adapter、hook 边界任务'],
      ['example', '比如当我说创建目标时'],
    ])
  })
})
