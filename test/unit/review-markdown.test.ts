import {describe, expect, it} from 'vitest'
import {buildCard, parseProposals} from '../../src/domain/propose.js'
import {codeSpan, inert, markdownText} from '../../src/domain/markdown.js'
import {renderReview, reviewEntries} from '../../src/domain/review.js'

const base = buildCard(
  parseProposals(
    {
      slug: 'deepmerge-array-replace-trap',
      type: 'pitfall',
      title: 'deepMerge replaces arrays',
      category: 'config',
      summary: 'When deepMerge merges hook config, arrays are replaced; merge hook arrays by hand.',
      rule: 'Merge hook arrays explicitly.',
      source_sessions: ['session-1'],
    },
    'in.json',
  )[0],
  {now: '2026-11-29T10:00:00Z', projectKey: 'github.com/acme/widgets', defaultLanguage: 'en', maxRecentPaths: 20},
)

// A hostile card: every string the review shows carries HTML, a comment, an entity or a mention.
const hostile = {
  ...base,
  title: '<script>alert(1)</script> ping @octocat',
  summary: 'Ask @acme/security-team <img src=x onerror=alert(1)> <!-- hidden -->\n# fake heading &#64;admin `tick',
  scope: {
    ...base.scope,
    project_key: 'github.com/<b>acme</b>/widgets',
    module_path: 'apps/<details>web',
    paths: ['src/<i>/**/*.ts', 'C:\\<u>'],
  },
  recall: {
    ...base.recall,
    triggers: ['<i>merge</i> @octocat'],
    aliases: {en: ['`hooks`'], zh: ['合并 <b>数组</b>']},
    derived_triggers: ['<b>bold</b>', 'ping @octocat', 'deepMerge'],
  },
  criteria: {use_when: ['<!-- installing --> hooks'], ignore_when: ['&amp; reading']},
}
const entries = reviewEntries([{card: hostile, layer: 'team', path: '.cairn/pending/pitfall/a@b<c>.md'}], 'en')

describe('markdown review is safe to post as a pull-request comment', () => {
  it('shows every card-supplied string in a code span, where GitHub renders no HTML, link or mention', () => {
    const md = renderReview(entries, 'en', 'markdown')
    expect(md.split('\n')).toEqual([
      '# Card Review — 1 pending card',
      '',
      '## C1 [type=pitfall] [layer=team] [load=recall] [relevance_scope=narrow] slug=deepmerge-array-replace-trap',
      'Title: `<script>alert(1)</script> ping @octocat`',
      // The summary's line break is folded, so "# fake heading" starts no heading; its backtick needs a longer fence.
      'Summary: ``Ask @acme/security-team <img src=x onerror=alert(1)> <!-- hidden --> # fake heading &#64;admin `tick``',
      'Scope: project `github.com/<b>acme</b>/widgets` module `apps/<details>web`',
      'Layer reasoning: team — the default: the card was proposed into the project store, where this review catches a ' +
        'wrong choice; a card wrongly made personal would never reach the team.',
      'Scope reasoning: narrow — gated by 2 path patterns; it only appears when work touches them.',
      'relevance_paths: `["src/<i>/**/*.ts","C:\\\\<u>"]`',
      'recall: policy=may risk=medium',
      'triggers: `["<i>merge</i> @octocat"]`',
      'aliases: ``["`hooks`","合并 <b>数组</b>"]``',
      'use_when: `["<!-- installing --> hooks"]`',
      'ignore_when: `["&amp; reading"]`',
      'derived_triggers: `["<b>bold</b>","ping @octocat","deepMerge"]` — derived by cairn from the ' +
        'title, summary and rule, not chosen by a person; replace them with ' +
        '"cairn review modify deepmerge-array-replace-trap --set triggers=\\<phrase\\>,\\<phrase\\>"',
      'pending_path: `.cairn/pending/pitfall/a@b<c>.md`',
      '',
      'Approve with "cairn review approve \\<id\\>" or "cairn review approve --all"; reject with ' +
        '"cairn review reject \\<id\\> --reason \\<text\\>"; change fields with ' +
        '"cairn review modify \\<id\\> --set \\<field\\>=\\<value\\>".',
    ])
  })

  it("an id that is not a plain slug goes in a code span, and out of cairn's own sentence", () => {
    const odd = reviewEntries(
      [{card: {...hostile, id: '[x](https://evil.example)'}, layer: 'team', path: 'p.md'}],
      'en',
    )
    const lines = renderReview(odd, 'en', 'markdown').split('\n')
    expect(lines[2]).toBe(
      '## C1 [type=pitfall] [layer=team] [load=recall] [relevance_scope=narrow] slug=`[x](https://evil.example)`',
    )
    expect(lines.find(l => l.startsWith('derived_triggers'))).toMatch(/ "cairn review modify \\<id\\> --set triggers=/)
  })

  it('the text format shows card strings as they are', () => {
    const text = renderReview(entries, 'en', 'text')
    expect(text).toContain('\nTitle: <script>alert(1)</script> ping @octocat\n')
    expect(text).toContain(
      '\nSummary: Ask @acme/security-team <img src=x onerror=alert(1)> <!-- hidden -->\n# fake heading',
    )
    expect(text).toContain('\nrelevance_paths: ["src/<i>/**/*.ts","C:\\\\<u>"]\n')
    expect(text).toContain('\nApprove with "cairn review approve <id>" or')
  })

  it('markdownText leaves plain text, prose and CJK alone', () => {
    const plain = '2-space TypeScript; see src/**/*.ts (v1.2) — 中文 [ok]'
    expect(markdownText(plain)).toBe(plain)
    expect(markdownText('a\r\nb\rc\u2028d')).toBe('a b c d')
    expect(markdownText('@a @@b x@ @-')).toBe('@\u200Da @@\u200Db x@ @-')
  })
})

describe('codeSpan', () => {
  it('a fence longer than any backtick run in the text, padded where the text starts or ends with one', () => {
    expect(codeSpan('plain [x](y) <b>')).toBe('`plain [x](y) <b>`')
    expect(codeSpan('a `b` c')).toBe('``a `b` c``')
    expect(codeSpan('`x`')).toBe('`` `x` ``')
    expect(codeSpan('close ``` fence ``')).toBe('```` close ``` fence `` ````')
    // CommonMark strips one space from each end when both have one: the pad keeps the text's own.
    expect(codeSpan(' spaced ')).toBe('`  spaced  `')
    expect(codeSpan('   ')).toBe('`   `')
    expect(codeSpan('one\r\ntwo\nthree\u2028four')).toBe('`one two three four`')
    expect(codeSpan('')).toBe('')
  })

  it('inert shows a plain word as it is, anything else in a code span', () => {
    expect(['pitfall', 'deepmerge-array-replace-trap', 'A1'].map(inert)).toEqual([
      'pitfall',
      'deepmerge-array-replace-trap',
      'A1',
    ])
    expect(['www.evil.example', 'a b', '@team', 'x_y', '-x'].map(inert)).toEqual([
      '`www.evil.example`',
      '`a b`',
      '`@team`',
      '`x_y`',
      '`-x`',
    ])
  })
})
