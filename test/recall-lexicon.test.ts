import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {evalRecall} from '../src/app/eval-recall.js'
import {promptRecall} from '../src/app/prompt-recall.js'
import {propose} from '../src/app/propose.js'
import {recall} from '../src/app/recall.js'
import {approve} from '../src/app/review.js'
import {renderRecall} from '../src/cli/render-recall.js'
import {projectStoreAt} from '../src/store/layout.js'
import {indexPath} from '../src/recall/open.js'
import {feed, settle} from './hook-helpers.js'
import {initRepo, type Repo, ROOT, tempDir} from './helpers.js'

/** Issue 10: cards reached across languages and wordings, the same answer from every door. */

const ids = (r: {cards: {id: string}[]}): string[] => r.cards.map(c => c.id)

/** Proposes cards from flags (title and summary only, as a new user would) and approves them. */
async function proposed(
  repo: Repo,
  cards: {type: string; slug: string; title: string; summary: string}[],
): Promise<void> {
  for (const fields of cards) await propose(repo.ctx(), {fields})
  await approve(repo.ctx(), {all: true})
}

const MERGE_ZH = {
  type: 'guideline',
  slug: 'merge-conflict-resolve-first',
  title: '合并冲突必须先解决再提交',
  summary: '出现合并冲突时，先在每个文件里解决冲突标记，跑一遍测试，再提交。',
}
const PATH_EN = {
  type: 'pitfall',
  slug: 'path-join-not-string-concat',
  title: 'Build file paths with path.join, never by string concatenation',
  summary:
    'Hand-built paths break on Windows, where the separator is a backslash; path.join picks the right separator.',
}
const ROLLBACK_ZH = {
  type: 'guideline',
  slug: 'release-rollback-plan-first',
  title: '发布前先准备回滚方案',
  summary: '每次发布到生产环境之前，写好回滚步骤，并确认数据库迁移可以回退。',
}

describe('cards proposed with a title and a summary only', () => {
  it('the zh query 怎么处理合并冲突 recalls the zh card titled 合并冲突必须先解决再提交', async () => {
    const repo = await initRepo()
    await proposed(repo, [MERGE_ZH, PATH_EN])
    const card = repo.read('.cairn/cards/guideline/merge-conflict-resolve-first.md')
    expect(card).toMatch(/^schema: cairn\/card@4$/m)
    expect(card).toMatch(/derived_triggers: \[.*合并冲突.*\]/)
    expect(ids(await recall(repo.ctx(), {prompt: '怎么处理合并冲突'}))).toEqual(['merge-conflict-resolve-first'])
    expect(ids(await recall(repo.ctx(), {prompt: 'when merging hook settings deepMerge replaces arrays'}))).toEqual([])
  })
})

describe('across languages, through the lexicon', () => {
  it('an English prompt recalls a Chinese card and a Chinese prompt an English card, in cairn recall and in the hook', async () => {
    const repo = await initRepo()
    await proposed(repo, [MERGE_ZH, PATH_EN, ROLLBACK_ZH])
    repo.git('add', '-A')
    const cases: [string, string][] = [
      ['Resolve the merge conflicts before you commit', 'merge-conflict-resolve-first'],
      ['We need a rollback plan before this release goes to production', 'release-rollback-plan-first'],
      ['用字符串拼接文件路径在 Windows 上会出问题吗', 'path-join-not-string-concat'],
    ]
    for (const [prompt, id] of cases) {
      const r = await recall(repo.ctx(), {prompt})
      expect(ids(r), prompt).toEqual([id])
      // The card shares no word with the prompt: what matched came through the lexicon, and --explain says so.
      const chosen = r.match.selected[0]
      expect(
        chosen.evidence.matches.some(m => m.via?.length),
        prompt,
      ).toBe(true)
      expect(renderRecall(r, true)).toContain('Expanded by the lexicon: ')
      const hook = await feed(repo, 'claude', 'user-prompt-submit', {
        session_id: 's1',
        cwd: repo.dir,
        hook_event_name: 'UserPromptSubmit',
        prompt,
      })
      expect(hook.error, prompt).toBeUndefined()
      expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext, prompt).toContain(`(${id})`)
    }
    await settle(repo)
  })

  it('--explain names the expanded term, the form it matched and the prompt word it came from', async () => {
    const repo = await initRepo()
    await proposed(repo, [MERGE_ZH])
    const r = await recall(repo.ctx(), {prompt: 'resolve the merge conflict first'})
    const text = renderRecall(r, true)
    expect(text).toMatch(/Expanded by the lexicon: .*merg conflict → 合并冲突/)
    expect(text).toContain('lexicon derived   "合并冲突" coverage 1 → 0.68 via merg conflict')
    // A Chinese prompt for an English card: the English form came from the prompt's Chinese word.
    await propose(repo.ctx(), {
      fields: {
        type: 'pitfall',
        slug: 'merge-conflict-markers-left',
        title: 'Conflict markers left in a commit',
        summary: 'Search for <<<<<<< before you commit a merge.',
      },
      phrases: {triggers: ['merge conflict markers']},
    })
    await approve(repo.ctx(), {all: true})
    const zh = renderRecall(await recall(repo.ctx(), {prompt: '合并冲突的标记还留在文件里'}), true)
    expect(zh).toMatch(/Expanded by the lexicon: .*合并冲突 → merg conflict/)
    expect(zh).toContain(
      'lexicon title     "Conflict markers left in a commit" coverage 0.25 → 0 via conflict (from 冲突)',
    )
  })

  it("a change to .cairn/lexicon.yaml rebuilds the index, and the team's terms are matched", async () => {
    const repo = await initRepo()
    await proposed(repo, [
      {
        type: 'guideline',
        slug: 'payment-gateway-idempotency',
        title: '支付网关回调要做幂等',
        summary: '支付网关可能重复回调，按订单号去重后再处理。',
      },
    ])
    const prompt = 'the billing provider webhook fires twice for one order'
    expect(ids(await recall(repo.ctx(), {prompt}))).toEqual([])
    repo.write(
      '.cairn/lexicon.yaml',
      'terms:\n  - {en: [billing provider], zh: [支付网关]}\n  - {en: [webhook], zh: [回调]}\n',
    )
    const r = await recall(repo.ctx(), {prompt})
    expect(r.rebuiltIndex).toBe(true)
    expect(ids(r)).toEqual(['payment-gateway-idempotency'])
    const warm = await promptRecall(repo.ctx(), {prompt, mode: 'hook'})
    expect([warm.rebuiltIndex, ids(warm)]).toEqual([false, ['payment-gateway-idempotency']])
    fs.rmSync(path.join(repo.dir, '.cairn/lexicon.yaml'))
    expect(ids(await recall(repo.ctx(), {prompt}))).toEqual([])
  })
})

describe("intent: a prompt that names a card's topic but asks for something else", () => {
  it('editing the docs, explaining or renaming discounts a card; a card about that intent keeps its score', async () => {
    const repo = await initRepo()
    for (const fields of [
      {
        type: 'pitfall',
        slug: 'force-push-shared-branch-ban',
        title: 'Never force push to a shared branch',
        summary: 'Force pushing rewrites history that others have pulled.',
      },
      {
        type: 'guideline',
        slug: 'readme-typo-fix-workflow',
        title: 'Fix typos in the README through a docs-only pull request',
        summary: 'Typo fixes in docs go in their own small pull request.',
      },
    ])
      await propose(repo.ctx(), {
        fields,
        phrases: {triggers: fields.slug.startsWith('force') ? ['force push'] : ['readme typo']},
      })
    await approve(repo.ctx(), {all: true})
    expect(ids(await recall(repo.ctx(), {prompt: 'force push my branch to origin'}))).toEqual([
      'force-push-shared-branch-ban',
    ])
    // Editing the docs and renaming lower a card to a fifth, explaining to 0.3: a design review
    // "without changing code" still needs the design card it names.
    for (const [prompt, factor] of [
      ['Fix the typo in the force push section of CONTRIBUTING.md', 0.2],
      ['Explain what a force push does, conceptually', 0.3],
      ['解释一下 force push 是什么意思', 0.3],
      ['Our new hire asked what a force push even is', 0.3],
      ['When did we first ban the force push? Find it in the history', 0.3],
      ['Rename the force push section', 0.2],
      ['What does git push --force do? Just curious, no changes needed', 0.3],
    ] as const) {
      const r = await recall(repo.ctx(), {prompt})
      expect(ids(r), prompt).not.toContain('force-push-shared-branch-ban')
      const c = r.match.considered.find(x => x.doc.id === 'force-push-shared-branch-ban')
      expect(c?.evidence.discount?.factor, `${prompt}: ${r.match.considered.map(x => x.doc.id)}`).toBe(factor)
    }
    // The docs card is about the docs-only intent itself, so that intent does not discount it.
    expect(ids(await recall(repo.ctx(), {prompt: 'fix the readme typo in the install section'}))).toEqual([
      'readme-typo-fix-workflow',
    ])
  })
})

describe('the same answer from cairn recall, the hook and eval recall', () => {
  it("on the project's own suite store, every case gives the same cards through each door", async () => {
    const suite = path.join(ROOT, 'evals/cairn-bilingual.json')
    const evaluated = await evalRecall(repo0().ctx(), {suite})
    const repo = await initRepo()
    const {importOme} = await import('../src/app/import-ome.js')
    await importOme(repo.ctx(), {path: path.join(ROOT, 'evals/cairn-bilingual.cards.json'), activate: true})
    for (const c of evaluated.cases) {
      const viaRecall = await recall(repo.ctx(), {prompt: c.prompt})
      const viaHook = await promptRecall(repo.ctx(), {prompt: c.prompt, mode: 'hook'})
      expect(ids(viaRecall), c.id).toEqual(c.recalled)
      expect(ids(viaHook), c.id).toEqual(c.recalled)
    }
    expect(fs.existsSync(indexPath(projectStoreAt(repo.dir)))).toBe(true)
  })
})

/** A bare context for eval, which makes its own scratch store. */
function repo0(): {ctx: () => ReturnType<Repo['ctx']>} {
  const dir = tempDir()
  return {ctx: () => ({...initCtx(dir)})}
}

function initCtx(dir: string): ReturnType<Repo['ctx']> {
  // eval recall only reads cwd (to resolve the suite path) and writes progress.
  return {
    cwd: dir,
    progress: () => {},
    warn: () => {},
    now: () => new Date('2026-11-30T00:00:00Z'),
  } as unknown as ReturnType<Repo['ctx']>
}
