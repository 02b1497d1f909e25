import {describe, expect, it} from 'vitest'
import {analysePrompt} from '../../src/recall/match/prompt.js'
import {buildRegistry} from '../../src/recall/match/signals.js'

const registry = buildRegistry()
const fired = (prompt: string) =>
  [...analysePrompt(prompt, registry, []).signals.keys()].filter(id => id.endsWith('_only'))

describe('intent signals: each pattern, and the ordinary prompts that must not fire them', () => {
  it('fires explain_only on each way of asking only to understand', () => {
    for (const p of [
      'Explain what a force push does',
      'what is the difference between merge and rebase',
      'Our new hire asked what a database migration even is',
      'When did we first ban force pushes?',
      'who introduced the retry budget',
      'What does hashFiles do in a GitHub Actions expression?',
      'Just curious about the cache key',
      '解释一下 git 的合并冲突',
      '那次事故是哪天？',
      '那次白屏是什么时候发生的？',
      '这个开关是谁加的',
      // Which one a part of the project uses: a question about it, no change.
      'Which queue library does the worker use?',
      '这个 skill 用的是哪家的行情数据源？',
    ])
      expect(fired(p), p).toEqual(['explain_only'])
  })

  it('does not fire explain_only when the prompt also asks for a change, or names no intent at all', () => {
    for (const p of [
      'The reviewer asked why the flaky test keeps failing; fix it',
      'Customer asks how to reset a password, implement the reset endpoint',
      'Find who introduced this regression and revert it',
      'what does this function do? refactor it into two',
      'Explain the bug, then fix the parser',
      'Decide what a valid config is and reject the rest',
      'Log what an incoming request body is before parsing',
      '这个死锁什么时候发生？请修复',
      '解释一下为什么失败，然后修复它',
      'Which queue library does the worker use? Replace it with BullMQ',
      '这里用的是哪个缓存？改成 Redis',
      'Add a test for which user the session uses',
    ])
      expect(fired(p), p).toEqual([])
  })

  it('fires docs_only on prose wording, not on a parser grammar', () => {
    expect(fired('Fix the grammar mistakes in the README intro')).toEqual(['docs_only'])
    expect(fired('proofread the copy on the timezone picker')).toEqual(['docs_only'])
    expect(fired('帮我看看这条提交信息的英文语法对不对')).toEqual(['docs_only'])
    expect(fired('Fix the parser grammar so trailing commas are accepted')).toEqual([])
  })

  it('reads a change asked for only in a mention as no change ("no need to fix anything")', () => {
    expect(fired('Explain the cache key, no need to fix anything')).toEqual(['explain_only'])
  })
})
