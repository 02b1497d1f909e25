import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {ciReview} from '../src/app/ci-review.js'
import {enrichApply} from '../src/app/enrich.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {approve, defer, reject} from '../src/app/review.js'
import {COMMENT_MARKER, renderComment} from '../src/domain/ci/comment.js'
import {reviewEntries} from '../src/domain/review.js'
import {patchCard} from '../src/domain/card/format.js'
import {card, cli, refusal, type Repo, templateRepo} from './helpers.js'

const ON_MAIN = card({
  slug: 'stale-pending-card-on-main',
  title: 'Pending before the branch',
  summary: 'Proposed on main.',
})
const TRAP = card({title: 'deepMerge <T> replaces arrays @team', summary: 'Append and dedupe instead.'})
const SECOND = card({
  slug: 'browser-validation-user-path',
  type: 'guideline',
  title: 'Validate in a browser',
  summary: 'Use a real browser.',
})
const THIRD = card({
  slug: 'quote-shell-variables-always',
  title: 'Quote shell variables',
  summary: 'Unquoted vars split.',
})
/** Proposes with triggers, so the review shows no derived_triggers line. */
const add = (repo: Repo, fields: Record<string, unknown>) =>
  propose(repo.ctx(), {fields, phrases: {triggers: ['some phrase']}})

async function build(repo: Repo, language: 'en' | 'zh-CN', requireDecision = false) {
  await init(repo.ctx())
  let config = repo.read('.cairn/config.yaml').replace('knowledge_language: en', `knowledge_language: ${language}`)
  if (requireDecision) config = config.replace('require_decision: false', 'require_decision: true')
  repo.write('.cairn/config.yaml', config)
  repo.git('commit', '-q', '--allow-empty', '-am', 'settings')
  await propose(repo.ctx(), {fields: ON_MAIN})
  repo.git('checkout', '-q', '-b', 'feature')
}

const english = templateRepo(repo => build(repo, 'en'))
const chinese = templateRepo(repo => build(repo, 'zh-CN'))
const deciding = templateRepo(repo => build(repo, 'en', true))

const HOW = [
  '### How to decide',
  '',
  '- Approve: comment `/cairn approve <id>` (several ids allowed), or `/cairn approve all` for every card without a decision.',
  '- Reject: comment `/cairn reject <id> <reason>`.',
  '- Defer: comment `/cairn defer <id> <YYYY-MM-DD>`; the card stays pending, hidden from review until then.',
  '- Modify: locally, run `cairn review modify <id> --set <field>=<value>`, then push.',
  '',
]

describe('cairn ci review', () => {
  it('writes the sticky comment: marker, check, the escaped review of the cards the branch adds, the line to comment', async () => {
    const repo = await english()
    await add(repo, TRAP)
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect(r.check).toEqual({ok: true, problems: []})
    expect(r.pending).toEqual(['deepmerge-array-replace-trap'])
    expect(r.comment.split('\n')).toEqual([
      COMMENT_MARKER,
      `<!-- cairn:head ${repo.git('rev-parse', 'HEAD').trim()} -->`,
      '## cairn: cards in this pull request',
      '',
      '✅ **Check passed.**',
      '',
      '### Card Review — 1 pending card',
      '',
      '#### C1 [type=pitfall] [layer=team] [load=recall] [relevance_scope=broad] slug=deepmerge-array-replace-trap',
      'Title: `deepMerge <T> replaces arrays @team`',
      'Summary: `Append and dedupe instead.`',
      'Rule: the same as the summary.',
      'Proposed by: `tester · session session-1 · via cli · 2026-11-29T10:00:00Z`',
      'Scope: project',
      'Layer reasoning: team — the default: the card was proposed into the project store, where this review catches a ' +
        'wrong choice; a card wrongly made personal would never reach the team.',
      'Scope reasoning: broad — no path patterns: it applies wherever the agent works in this project.',
      'relevance_paths: `[]`',
      'recall: policy=may risk=medium',
      'triggers: `["some phrase"]`',
      'pending_path: `.cairn/pending/pitfall/deepmerge-array-replace-trap.md`',
      'To approve this card, comment: `/cairn approve deepmerge-array-replace-trap`',
      '',
      ...HOW,
    ])
  })

  it('follows knowledge_language: zh-CN', async () => {
    const repo = await chinese()
    await add(repo, SECOND)
    const lines = (await ciReview(repo.ctx(), {since: 'main'})).comment.split('\n')
    expect(lines.slice(0, 8)).toEqual([
      COMMENT_MARKER,
      `<!-- cairn:head ${repo.git('rev-parse', 'HEAD').trim()} -->`,
      '## cairn：本拉取请求中的卡片',
      '',
      '✅ **检查通过。**',
      '',
      '### 卡片评审 — 1 张待审卡片',
      '',
    ])
    expect(lines).toContain('批准这张卡片，请评论： `/cairn approve browser-validation-user-path`')
    expect(lines.slice(-7)).toEqual([
      '### 如何决定',
      '',
      '- 批准：评论 `/cairn approve <id>`（可写多个 id），或评论 `/cairn approve all` 批准所有尚无决定的卡片。',
      '- 拒绝：评论 `/cairn reject <id> <原因>`。',
      '- 推迟：评论 `/cairn defer <id> <YYYY-MM-DD>`；卡片保持待审，在该日期前不出现在评审中。',
      '- 修改：在本地运行 `cairn review modify <id> --set <字段>=<值>`，然后推送。',
      '',
    ])
    expect(lines.some(l => l.startsWith('确认？'))).toBe(false)
  })

  it('says in one line that the branch adds no pending card (the one on main is not listed)', async () => {
    const repo = await english()
    const r = await ciReview(repo.ctx(), {since: 'main', head: 'f'.repeat(40)})
    const marker = `${COMMENT_MARKER}\n<!-- cairn:head ${'f'.repeat(40)} -->`
    expect(r.comment).toBe(
      `${marker}\n## cairn: cards in this pull request\n\n✅ **Check passed.**\n\nNo pending card was added by this pull request.\n`,
    )
    expect(r.pending).toEqual([])
    const zh = await ciReview((await chinese()).ctx(), {since: 'main'})
    expect(zh.comment.split('\n').slice(-2)).toEqual(['本拉取请求没有新增待审卡片。', ''])
  })

  it('lists the recall phrases the branch changed on active cards, added and removed, in the comment', async () => {
    const repo = await english()
    repo.git('checkout', '-q', 'main')
    await propose(repo.ctx(), {fields: THIRD, phrases: {triggers: ['word splitting in bash', 'unquoted dollar']}})
    await approve(repo.ctx(), {ids: ['quote-shell-variables-always']})
    repo.git('checkout', '-q', 'feature')
    repo.git('merge', '-q', 'main')
    const entries = [
      {
        id: 'quote-shell-variables-always',
        triggers: ['spaces in file names break the script'],
        aliases: {zh: ['变量加引号']},
        ignore_when: ['explain <T> quoting'],
      },
    ]
    await enrichApply(repo.ctx({stdin: JSON.stringify(entries)}), {file: '-'})
    const card = '.cairn/cards/pitfall/quote-shell-variables-always.md'
    repo.write(card, repo.read(card).replace('unquoted dollar, ', ''))
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect(r.recall).toEqual([
      {
        id: 'quote-shell-variables-always',
        path: card,
        fields: [
          {field: 'triggers', added: ['spaces in file names break the script'], removed: ['unquoted dollar']},
          {field: 'aliases.zh', added: ['变量加引号'], removed: []},
          {field: 'ignore_when', added: ['explain <T> quoting'], removed: []},
        ],
      },
    ])
    const lines = r.comment.split('\n')
    const at = lines.indexOf('### Recall phrases this pull request changes on active cards')
    expect(lines.slice(at, at + 8)).toEqual([
      '### Recall phrases this pull request changes on active cards',
      '',
      'Prompts that hold these phrases will bring the card up (or no longer will); check they are what a colleague would type.',
      '',
      '- `quote-shell-variables-always`:',
      '  - triggers: + `spaces in file names break the script`, − `unquoted dollar`',
      '  - aliases.zh: + `变量加引号`',
      '  - ignore_when: + `explain <T> quoting`',
    ])
    // Phrases on a pending card are its review's, not this section's.
    expect(r.comment.match(/### Recall phrases/g)).toHaveLength(1)
  })

  it("a card the base branch approved after the branch left it is not the branch's; its settings since then govern", async () => {
    // As the fork's review sees it: the branch's head checked out, the base branch moved on.
    const repo = await english()
    await add(repo, TRAP)
    repo.git('checkout', '-q', 'main')
    await approve(repo.ctx(), {ids: ['stale-pending-card-on-main']})
    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('require_decision: false', 'require_decision: true'),
    )
    repo.git('commit', '-q', '-am', 'decisions required')
    repo.git('checkout', '-q', 'feature')
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect(r.pending).toEqual(['deepmerge-array-replace-trap'])
    expect(r.check.ok).toBe(false)
    expect(r.check.problems).toHaveLength(1)
    expect(r.check.problems[0]).toContain('deepmerge-array-replace-trap')
  })

  it('an invalid card fails the check, named with its file and fix; the valid cards are still reviewed', async () => {
    const repo = await english()
    await add(repo, TRAP)
    repo.write(
      '.cairn/pending/pitfall/broken-card-file-here.md',
      '---\nschema: cairn/card@1\nid: broken-card-file-here\n---\nbody\n',
    )
    repo.git('add', '-A')
    repo.git('commit', '-q', '-m', 'broken')
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect(r.check.ok).toBe(false)
    const file = '.cairn/pending/pitfall/broken-card-file-here.md'
    expect(r.check.problems).toEqual([
      `${file}: type: is required. Fix: set type to model, decision, guideline, pitfall or process.`,
      `${file}: status: is required. Fix: set status to pending, active, deprecated or superseded.`,
      `${file}: title: is required. Fix: add "title": text.`,
      `${file}: summary: is required. Fix: add "summary": text.`,
    ])
    const lines = r.comment.split('\n')
    expect(lines[4]).toBe(
      `❌ **Check failed** (${r.check.problems.length} problem${r.check.problems.length === 1 ? '' : 's'}):`,
    )
    expect(lines.slice(6, 6 + r.check.problems.length)).toEqual(r.check.problems.map(p => `- \`${p}\``))
    expect(r.pending).toEqual(['deepmerge-array-replace-trap'])
  })

  it('a card with an unclosed quote fails the check by its file; the comment still reviews every other card', async () => {
    const repo = await english()
    await add(repo, TRAP)
    await add(repo, THIRD)
    const file = '.cairn/pending/pitfall/quote-shell-variables-always.md'
    repo.write(file, repo.read(file).replace('title: Quote shell variables', 'title: "Quote shell variables'))
    repo.git('commit', '-q', '-am', 'a hand edit that breaks the card')
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect(r.check.ok).toBe(false)
    expect(r.check.problems).toEqual([expect.stringMatching(new RegExp(`^${file.replace(/\./g, '\\.')}: .+ Fix: `))])
    expect(r.pending).toEqual(['deepmerge-array-replace-trap'])
    expect(r.comment).toContain(`- \`${r.check.problems[0]}\``)
    expect(r.comment).toContain('To approve this card, comment: `/cairn approve deepmerge-array-replace-trap`')
  })

  it('a secret in a pending card fails the check without echoing it', async () => {
    const repo = await english()
    await add(repo, TRAP)
    const file = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
    const token = `ghp_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A'}`
    repo.write(file, `${repo.read(file)}\nUse ${token} to call the API.\n`)
    repo.git('commit', '-q', '-am', 'token')
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect(r.check.ok).toBe(false)
    expect(r.check.problems).toHaveLength(1)
    expect(r.check.problems[0]).toMatch(
      /^\.cairn\/pending\/pitfall\/deepmerge-array-replace-trap\.md: body: contains a GitHub token \(fingerprint [0-9a-f]{16}\)\. Fix: remove it/,
    )
    expect(r.comment).not.toContain(token)
    expect(JSON.stringify(r)).not.toContain(token)
  })

  it('require_decision fails while a card the branch adds has no decision; approved, rejected or deferred are decisions', async () => {
    const repo = await deciding()
    for (const c of [TRAP, SECOND, THIRD]) await add(repo, c)
    const before = await ciReview(repo.ctx(), {since: 'main'})
    const undecided = (id: string) =>
      `${id}: no decision yet (review.require_decision is on): approve, reject or defer it`
    expect(before.check).toEqual({
      ok: false,
      problems: [
        undecided('browser-validation-user-path'),
        undecided('deepmerge-array-replace-trap'),
        undecided('quote-shell-variables-always'),
      ],
    })
    expect(before.comment).toContain(
      '\n❌ **Check failed** (3 problems):\n\n- `browser-validation-user-path: no decision yet',
    )
    await approve(repo.ctx(), {ids: ['browser-validation-user-path']})
    await reject(repo.ctx(), {id: 'deepmerge-array-replace-trap', reason: 'covered elsewhere'})
    expect((await ciReview(repo.ctx(), {since: 'main'})).check.problems).toEqual([
      undecided('quote-shell-variables-always'),
    ])
    // A deferral whose date has passed is still a decision: the card shows in the review again, the check passes.
    await defer(repo.ctx({now: '2025-12-01T00:00:00Z'}), {id: 'quote-shell-variables-always', until: '2026-01-01'})
    const after = await ciReview(repo.ctx(), {since: 'main'})
    expect(after.check).toEqual({ok: true, problems: []})
    expect(after.pending).toEqual(['quote-shell-variables-always'])
    // Deferred into the future: decided, and hidden like "cairn review" hides it.
    await defer(repo.ctx(), {id: 'quote-shell-variables-always', until: '2027-01-01'})
    const hidden = await ciReview(repo.ctx(), {since: 'main'})
    expect(hidden.check.ok).toBe(true)
    expect(hidden.pending).toEqual([])
  })

  it('without require_decision, undecided cards pass', async () => {
    const repo = await english()
    await add(repo, TRAP)
    expect((await ciReview(repo.ctx(), {since: 'main'})).check.ok).toBe(true)
  })

  it('an unknown ref exits 4 with the review message', async () => {
    const repo = await english()
    const e = await refusal(() => ciReview(repo.ctx(), {since: 'no-such-ref'}))
    expect(e.exitCode).toBe(4)
    expect(e.message).toBe(
      'Unknown git ref "no-such-ref". Fix: give a branch, tag or commit this repository has; "git branch -a" lists the branches.',
    )
  })

  it('keeps the comment under the limit, cutting whole cards with a line saying how many are left', () => {
    const entries = reviewEntries(
      Array.from({length: 40}, (_, i) => ({
        card: {...cardShape(`long-summary-card-number-${i}`), summary: `x${'<y> '.repeat(400)}`},
        layer: 'team' as const,
        path: `.cairn/pending/pitfall/long-summary-card-number-${i}.md`,
      })),
      'en',
    )
    const comment = renderComment({language: 'en', problems: [], entries, max: 20_000})
    expect(comment.length).toBeLessThanOrEqual(20_000)
    const shown = comment.match(/^To approve this card, comment: /gm)!.length
    expect(shown).toBeGreaterThan(0)
    expect(comment).toContain(
      `\n\n…and ${40 - shown} more cards not shown here; run \`cairn review\` locally to see them all.\n\n### How to decide\n`,
    )
    // Every shown card is whole: its block ends with its approve line.
    expect(comment.split('\n').filter(l => l.startsWith('#### C')).length).toBe(shown)
    const full = renderComment({language: 'en', problems: Array.from({length: 80}, (_, i) => `problem ${i}`), entries})
    expect(full.length).toBeLessThanOrEqual(65_000)
    expect(full).toContain('\n- `problem 49`\n- …and 30 more; run `cairn lint` locally to see them all.\n')
  })
})

describe('the pull-request comment says shared reasoning once', () => {
  // Thirteen cards as a session proposes them: ten broad, three narrow by the same two globs, one rule each.
  const thirteen = reviewEntries(
    Array.from({length: 13}, (_, i) => {
      const id = `thirteen-card-number-${String(i + 1).padStart(2, '0')}`
      const narrow = i >= 10
      const base = cardShape(id)
      return {
        card: {
          ...base,
          title: `Card ${i + 1}: a lesson from the session`,
          summary: `When the session touches part ${i + 1}, check the config first; it saves a rebuild.`,
          scope: {...base.scope, paths: narrow ? ['src/config/**', 'src/hooks/*.ts'] : []},
          provenance: {
            ...base.provenance,
            source_sessions: ['session-1'],
            recent_paths: narrow ? ['src/config/a.ts', 'src/config/b.ts'] : [],
          },
          recall: {...base.recall, triggers: [`part ${i + 1} config`, 'rebuild after config']},
        },
        layer: 'team' as const,
        path: `.cairn/pending/pitfall/${id}.md`,
        rule: `Check the config of part ${i + 1} before a rebuild.\nRun the build once after.`,
      }
    }),
    'en',
  )
  const LAYER = 'Layer reasoning: team — the default'

  it('the layer sentence appears once for 13 cards, the broad scope sentence once, the narrow one once', () => {
    const comment = renderComment({language: 'en', problems: [], entries: thirteen, head: 'a'.repeat(40)})
    expect(comment.split(LAYER)).toHaveLength(2)
    expect(comment.split('Scope reasoning: broad — no path patterns')).toHaveLength(2)
    expect(comment.split('Scope reasoning: narrow — gated by 2 path patterns')).toHaveLength(2)
    expect(comment.split('\n').slice(6, 12)).toEqual([
      '### Card Review — 13 pending cards',
      '',
      'Reasoning the cards below share, said once here; each card shows only its own:',
      `- ${LAYER}: the card was proposed into the project store, where this review catches a wrong choice; a card ` +
        'wrongly made personal would never reach the team.',
      '- Scope reasoning: broad — no path patterns: it applies wherever the agent works in this project.',
      "- Scope reasoning: narrow — gated by 2 path patterns, derived from the session's edit paths; it only appears " +
        'when work touches them.',
    ])
    expect(comment.match(/^To approve this card, comment: /gm)).toHaveLength(13)
    // Fixed inputs, so a fixed size: 8,759 bytes; with every sentence said for every card it was 12,029.
    expect(Buffer.byteLength(comment)).toBeLessThan(9_000)
  })

  it('a card whose reasoning no other card shares keeps it; one card alone keeps all of its own', () => {
    const personal = reviewEntries(
      [{card: cardShape('personal-card-number-one'), layer: 'personal' as const, path: 'p.md'}],
      'en',
    )
    const comment = renderComment({language: 'en', problems: [], entries: [...thirteen.slice(0, 2), ...personal]})
    const own = comment.split('#### C').at(-1)!
    expect(own).toContain('\nLayer reasoning: personal — proposed for your personal store')
    expect(own).toContain('\nScope reasoning: broad — the personal layer always forces broad')
    expect(comment.split(LAYER)).toHaveLength(2)
    const alone = reviewEntries([{card: cardShape('one-card-number-one'), layer: 'team', path: 'p.md'}], 'zh-CN')
    const one = renderComment({language: 'zh-CN', problems: [], entries: alone})
    expect(one).not.toContain('只在此说明一次')
    expect(one).toContain('\nlayer 判定：team — 默认选择')
  })
})

function cardShape(id: string) {
  return {
    id,
    type: 'pitfall',
    load: 'recall',
    title: 'Long',
    summary: '',
    scope: {level: 'project', project_key: null, module_path: null, paths: []},
    provenance: {recent_paths: [], proposed_by: null, client: null, via: null, session: null},
    recall: {policy: 'may', risk: 'medium', triggers: [], aliases: {en: [], zh: []}, derived_triggers: []},
    criteria: {use_when: [], ignore_when: []},
    supersedes: [],
  } as unknown as Parameters<typeof reviewEntries>[0][number]['card']
}

describe('cairn ci review (CLI)', () => {
  it('exit 0 or 6; --out replaces the file; --json carries {comment, check, pending}', async () => {
    const repo = await deciding()
    await add(repo, TRAP)
    const out = path.join(repo.dir, '..', 'out', 'comment.md')
    const failing = await cli(['ci', 'review', '--since', 'main', '--out', out], {cwd: repo.dir, env: repo.env})
    expect(failing.code).toBe(6)
    expect(failing.stdout).toBe(`wrote the review comment to ${out}; check failed: 1 problem(s)\n`)
    const written = fs.readFileSync(out, 'utf8')
    expect(written.startsWith(`${COMMENT_MARKER}\n`)).toBe(true)
    expect(written).toContain('deepmerge-array-replace-trap: no decision yet')
    const json = await cli(['ci', 'review', '--since', 'main', '--json'], {cwd: repo.dir, env: repo.env})
    expect(json.code).toBe(6)
    const envelope = json.json()
    expect(envelope.ok).toBe(false)
    expect(envelope.error.code).toBe('validation')
    expect(envelope.error.data.comment).toBe(written)
    expect(envelope.error.data.pending).toEqual(['deepmerge-array-replace-trap'])
    expect(envelope.error.data.check.ok).toBe(false)
    await approve(repo.ctx(), {all: true})
    const sha = 'a1'.repeat(20)
    const passing = await cli(['ci', 'review', '--since', 'main', '--head', sha], {cwd: repo.dir, env: repo.env})
    expect(passing.code).toBe(0)
    expect(passing.stdout).toBe(
      `${COMMENT_MARKER}\n<!-- cairn:head ${sha} -->\n## cairn: cards in this pull request\n\n✅ **Check passed.**\n\n` +
        'No pending card was added by this pull request.\n',
    )
    const badHead = await cli(['ci', 'review', '--since', 'main', '--head', 'HEAD~1', '--out', out], {
      cwd: repo.dir,
      env: repo.env,
    })
    expect([badHead.code, badHead.stderr.trim()]).toEqual([
      2,
      'cairn: --head "HEAD~1" is not a commit sha. Fix: give the full 40-character sha of the pull request\'s head.',
    ])
    const unknown = await cli(['ci', 'review', '--since', 'nope'], {cwd: repo.dir, env: repo.env})
    expect(unknown.code).toBe(4)
    expect(fs.readdirSync(path.dirname(out))).toEqual(['comment.md'])
  })
})

/** The comment's settings section: from its heading to the next heading, without the blank line before it. */
function settingsSection(comment: string): string[] {
  const lines = comment.split('\n')
  const start = lines.findIndex(l => l.startsWith('### ⚠️'))
  if (start < 0) return []
  const end = lines.findIndex((l, i) => i > start && (l.startsWith('### ') || l.startsWith('No pending card')))
  return lines.slice(start, end - 1)
}

const setConfig = (repo: Repo, from: string, to: string) =>
  repo.write('.cairn/config.yaml', repo.read('.cairn/config.yaml').replace(from, to))
const SETTINGS_HEAD = [
  '### ⚠️ Settings this pull request changes',
  '',
  'The check above follows the settings on `main`; these changes take effect only once merged.',
  '',
]

describe('cairn ci review: the base branch governs the check', () => {
  it('a branch that allows its own secret still fails; the comment shows the change; allowed on the base, it passes', async () => {
    const repo = await english()
    await add(repo, TRAP)
    const file = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
    repo.write(file, `${repo.read(file)}\nUse ghp_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A'} to call the API.\n`)
    repo.git('commit', '-q', '-am', 'token')
    const refused = await ciReview(repo.ctx(), {since: 'main'})
    const fp = /fingerprint ([0-9a-f]{16})/.exec(refused.check.problems[0])![1]
    setConfig(repo, '  allow: []', `  allow: ["${fp}"]`)
    repo.git('commit', '-q', '-am', 'allow my own secret')
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect(r.check).toEqual(refused.check)
    expect(settingsSection(r.comment)).toEqual([
      ...SETTINGS_HEAD,
      '- `.cairn/config.yaml`:',
      `  - \`secrets.allow[0]\`: not set → \`"${fp}"\``,
    ])
    // The same allow-list on the base: the base says so, nothing differs, the check passes.
    const allowed = repo.read('.cairn/config.yaml')
    repo.git('checkout', '-q', 'main')
    repo.write('.cairn/config.yaml', allowed)
    repo.git('commit', '-q', '-am', 'allow it on main')
    repo.git('checkout', '-q', 'feature')
    const passed = await ciReview(repo.ctx(), {since: 'main'})
    expect(passed.check).toEqual({ok: true, problems: []})
    expect(settingsSection(passed.comment)).toEqual([])
  })

  it('a branch cannot turn require_decision off, nor change the language, for its own check', async () => {
    const repo = await deciding()
    await add(repo, TRAP)
    setConfig(repo, 'require_decision: true', 'require_decision: false')
    setConfig(repo, 'knowledge_language: en', 'knowledge_language: zh-CN')
    repo.git('commit', '-q', '-am', 'no decision needed')
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect(r.check).toEqual({
      ok: false,
      problems: [
        'deepmerge-array-replace-trap: no decision yet (review.require_decision is on): approve, reject or defer it',
      ],
    })
    expect(r.comment).toContain('\n## cairn: cards in this pull request\n')
    expect(settingsSection(r.comment)).toEqual([
      ...SETTINGS_HEAD,
      '- `.cairn/config.yaml`:',
      '  - `knowledge_language`: `"en"` → `"zh-CN"`',
      '  - `review.require_decision`: `true` → `false`',
    ])
  })

  it('lists a signals.yaml change; says when only comments changed, or a side is not YAML, which lint still fails', async () => {
    const repo = await english()
    repo.write(
      '.cairn/signals.yaml',
      'schema: cairn/signals@1\nsignals:\n  - id: payment_flow\n    polarity: positive\n' +
        '    description: Work on payments.\n    patterns: {en: [refund], zh: []}\n',
    )
    repo.write('.cairn/config.yaml', `${repo.read('.cairn/config.yaml')}# a note for the team\n`)
    repo.git('add', '-A')
    repo.git('commit', '-q', '-m', 'a signal')
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect(r.check.ok).toBe(true)
    expect(settingsSection(r.comment)).toEqual([
      ...SETTINGS_HEAD,
      '- `.cairn/config.yaml`: comments or layout only; no setting changed.',
      '- `.cairn/signals.yaml`:',
      '  - `schema`: not set → `"cairn/signals@1"`',
      '  - `signals[0].id`: not set → `"payment_flow"`',
      '  - `signals[0].polarity`: not set → `"positive"`',
      '  - `signals[0].description`: not set → `"Work on payments."`',
      '  - `signals[0].patterns.en[0]`: not set → `"refund"`',
    ])
    setConfig(repo, 'review:\n', 'review: [\n')
    const broken = await ciReview(repo.ctx(), {since: 'main'})
    expect(broken.check.ok).toBe(false)
    expect(broken.check.problems[0]).toMatch(/^\.cairn\/config\.yaml: \(yaml\): invalid YAML at line \d+/)
    expect(settingsSection(broken.comment).slice(4, 5)).toEqual([
      '- `.cairn/config.yaml`: not valid YAML on one side, so the settings that changed cannot be listed.',
    ])
  })

  it('a config.yaml invalid or linked at the base is an error naming it, and nothing is written; none at the base is the defaults', async () => {
    const repo = await deciding()
    await add(repo, TRAP)
    const root = repo.git('rev-list', '--max-parents=0', 'HEAD').trim()
    // The first commit has no .cairn/: every default, so require_decision is off; the whole file is a change, listed up to 20 keys.
    const fresh = await ciReview(repo.ctx(), {since: root})
    expect(fresh.check).toEqual({ok: true, problems: []})
    const section = settingsSection(fresh.comment)
    expect(section.slice(0, 6)).toEqual([
      '### ⚠️ Settings this pull request changes',
      '',
      `The check above follows the settings on \`${root}\`; these changes take effect only once merged.`,
      '',
      '- `.cairn/config.yaml`:',
      '  - `schema`: not set → `"cairn/config@1"`',
    ])
    expect(section.slice(-1)).toEqual([expect.stringMatching(/^ {2}- …and \d+ more\.$/)])
    expect(section.filter(l => l.startsWith('  - `'))).toHaveLength(20)

    const out = path.join(repo.dir, '..', 'comment.md')
    repo.git('checkout', '-q', 'main')
    setConfig(repo, 'require_decision: true', 'require_decision: maybe')
    repo.git('commit', '-q', '-am', 'a bad setting on main')
    repo.git('checkout', '-q', 'feature')
    const invalid = await refusal(() => ciReview(repo.ctx(), {since: 'main', out}))
    expect([invalid.exitCode, invalid.message]).toEqual([
      6,
      ".cairn/config.yaml at main is invalid; the base branch's settings govern the review check, so fix them there first:\n" +
        '  - .cairn/config.yaml at main: review.require_decision: must be true or false. Fix: give true or false.',
    ])
    repo.git('checkout', '-q', 'main')
    fs.rmSync(path.join(repo.dir, '.cairn/config.yaml'))
    fs.symlinkSync('../README.md', path.join(repo.dir, '.cairn/config.yaml'))
    repo.git('commit', '-q', '-am', 'a linked config on main')
    repo.git('checkout', '-q', 'feature')
    const linked = await refusal(() => ciReview(repo.ctx(), {since: 'main', out}))
    expect([linked.exitCode, linked.message]).toEqual([
      6,
      'Invalid input:\n  - .cairn/config.yaml at main: (file): is a symbolic link; ' +
        'cairn never follows links under .cairn/. Fix: replace it with a regular file on that branch.',
    ])
    expect(fs.existsSync(out)).toBe(false)
  })
})

/**
 * The comment with each code span replaced by <code> (CommonMark: a run of n backticks opens, the next run of
 * exactly n closes; a backslash escapes one), and its two marker lines dropped: what GitHub renders as markdown.
 */
function outsideCode(md: string): string {
  const text = md
    .split('\n')
    .filter(l => !/^<!-- cairn:(review|head [0-9a-f]+) -->$/.test(l))
    .join('\n')
  let out = ''
  let i = 0
  while (i < text.length) {
    if (text[i] === '\\') {
      out += text.slice(i, i + 2)
      i += 2
      continue
    }
    if (text[i] !== '`') {
      out += text[i++]
      continue
    }
    const open = /^`+/.exec(text.slice(i))![0].length
    const close = new RegExp(`(?<!\`)\`{${open}}(?!\`)`, 'g')
    close.lastIndex = i + open
    const m = close.exec(text)
    out += m ? '<code>' : '`'.repeat(open)
    i = m ? m.index + open : i + open
  }
  return out
}

describe('cairn ci review: card text renders as text', () => {
  const TITLE = '`Approve` ![x](https://evil.example/p.png) [Approve here](https://evil.example/login)'
  const SUMMARY =
    'See <img src=https://evil.example/x.png> and <a href="https://evil.example">this</a>, https://evil.example, ' +
    'www.evil.example or admin@evil.example; cc @octocat @acme/security.\n```\n## Approved by @maintainer\n```'
  const TRIGGERS = ['close ``` the fence', '`tick`']

  it('links, images, HTML, autolinks, mentions and fence closers in card text stay inside code spans', async () => {
    const repo = await english()
    await add(repo, TRAP)
    const file = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
    repo.write(
      file,
      patchCard(repo.read(file), file, [
        [['title'], TITLE],
        [['summary'], SUMMARY],
        [['recall', 'triggers'], TRIGGERS],
      ]),
    )
    // A settings key of the branch's own is pull-request text too: in a lint problem and in the settings section.
    repo.write(
      '.cairn/config.yaml',
      `${repo.read('.cairn/config.yaml')}"[Approve](https://evil.example/ok) @octocat": 1\n`,
    )
    repo.git('commit', '-q', '-am', 'hostile text')
    const r = await ciReview(repo.ctx(), {since: 'main'})
    expect(r.pending).toEqual(['deepmerge-array-replace-trap'])
    const lines = r.comment.split('\n')
    // Each value is one code span whose fence is longer than any backtick run inside, padded where it starts or
    // ends with a backtick; the summary's line breaks are folded, so its fence lines start no block.
    expect(lines).toContain(`Title: \`\` ${TITLE} \`\``)
    expect(lines).toContain(`Summary: \`\`\`\` ${SUMMARY.replace(/\n/g, ' ')} \`\`\`\``)
    expect(lines).toContain('triggers: ````["close ``` the fence","`tick`"]````')
    expect(lines).toContain(
      '- `.cairn/config.yaml: [Approve](https://evil.example/ok) @octocat: unknown field. ' +
        'Fix: remove "[Approve](https://evil.example/ok) @octocat", or check its spelling.`',
    )
    expect(lines).toContain('  - `[Approve](https://evil.example/ok) @octocat`: not set → `1`')
    // What GitHub renders as markdown, outside the code spans, holds nothing of the card's or the config's text.
    const rendered = outsideCode(r.comment)
    expect(rendered).not.toMatch(/evil|Approve here|@\w|<(?!code>)|\]\(|!\[/)
    expect(rendered.split('\n').filter(l => /^(Title|Summary|triggers|pending_path): /.test(l))).toEqual([
      'Title: <code>',
      'Summary: <code>',
      'triggers: <code>',
      'pending_path: <code>',
    ])
  })
})
