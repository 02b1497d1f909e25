import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {MODIFIABLE} from '../src/app/modify.js'
import {propose} from '../src/app/propose.js'
import {review} from '../src/app/review.js'
import {reviewSession} from '../src/app/review-session.js'
import {PROTECTED_TOKENS} from '../src/domain/review.js'
import {card, type Repo, templateRepo} from './helpers.js'
import {scripted} from './review-helpers.js'

/** cairn's own words follow knowledge_language; a card's own text stays as written. */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u

// One card of each kind the review explains differently: narrow with derived paths, a module, personal, broad.
const ENGLISH = [
  card({relevance_scope: 'narrow', edit_paths: ['src/config/json.ts', 'src/config/merge.ts']}),
  card({
    slug: 'browser-validation-user-path',
    type: 'guideline',
    title: 'Check the user path in a browser',
    summary: 'When a UI change affects the user path, check it in a real browser.',
    scope: {module_path: 'apps/web'},
  }),
  card({
    slug: 'indent-style-by-language',
    type: 'guideline',
    layer: 'personal',
    title: 'Indent by language',
    summary: '2-space TypeScript, 4-space Python.',
  }),
  card({
    slug: 'quote-shell-variables-always',
    title: 'Quote shell variables',
    summary: 'Unquoted variables split on spaces.',
  }),
]
const CHINESE = [
  card({
    relevance_scope: 'narrow',
    edit_paths: ['src/config/json.ts', 'src/config/merge.ts'],
    title: '深度合并会替换数组',
    summary: '合并钩子配置时，深度合并会替换数组；应追加并去重。',
  }),
  card({
    slug: 'browser-validation-user-path',
    type: 'guideline',
    title: '浏览器验证用户路径',
    summary: '当界面改动会影响用户路径时，应在真实浏览器中验证。',
    scope: {module_path: 'apps/web'},
  }),
  card({
    slug: 'indent-style-by-language',
    type: 'guideline',
    layer: 'personal',
    title: '按语言缩进',
    summary: '脚本两格缩进，另一种语言四格缩进。',
  }),
  card({slug: 'quote-shell-variables-always', title: '给变量加引号', summary: '不加引号的变量会按空格拆开。'}),
]

const storeIn = (language: 'en' | 'zh-CN', cards: Record<string, unknown>[]) =>
  templateRepo(async (repo: Repo) => {
    await init(repo.ctx())
    repo.write(
      '.cairn/config.yaml',
      repo.read('.cairn/config.yaml').replace('knowledge_language: en', `knowledge_language: ${language}`),
    )
    repo.git('commit', '-q', '--allow-empty', '-am', 'language')
    for (const fields of cards) await propose(repo.ctx(), {fields})
  })
const english = storeIn('en', ENGLISH)
const chinese = storeIn('zh-CN', CHINESE)

/** Everything a reviewer reads: the printed review in both formats, and a whole interactive session. */
async function everything(repo: Repo, script: (string | null)[]): Promise<{text: string; values: string[]}> {
  const printed = await Promise.all((['text', 'markdown'] as const).map(format => review(repo.ctx(), {format})))
  const values = printed[0].entries.flatMap(e => [
    ...e.derived_triggers,
    e.id,
    e.type,
    e.layer,
    e.load,
    e.relevance_scope,
    e.title,
    e.summary,
    e.pending_path,
    e.pending_path.replace('/pending/', '/cards/'),
    JSON.stringify(e.relevance_paths),
    e.scope.level,
    ...[e.scope.project_key ?? ''].flat(),
    e.scope.module_path ?? '',
    // Who proposed it, from where: a name, a session id and the front end are values too.
    ...(e.proposed ?? '').split(' · '),
  ])
  const {asker, log} = scripted(script)
  const session = await reviewSession(repo.ctx(), asker)
  const shas = session.done.map(d => d.commit!.slice(0, 7))
  return {text: [...printed.map(p => p.text), ...log, session.text].join('\n'), values: [...values, ...shas]}
}

describe("the review speaks the store's language", () => {
  it("en: no CJK character in cairn's own words, printed or asked", async () => {
    const repo = await english()
    const script = [
      'm',
      'load',
      'sometimes',
      'm',
      'load',
      'core',
      'a',
      'r',
      '',
      'duplicate',
      'd',
      '2020-01-01',
      '2026-12-31',
      'q',
    ]
    const {text} = await everything(repo, script)
    expect(text).toContain('Layer reasoning: personal — proposed for your personal store')
    expect(text).toContain('Approved 1, rejected 1, deferred 1, modified 1, skipped 0.\n1 card left for later')
    expect(text.match(new RegExp(CJK.source, 'gu'))).toBeNull()
  })

  it("zh-CN: no English word outside the protected tokens (field names, commands, ids) and the cards' own text", async () => {
    const repo = await chinese()
    // A date already past, then one that is not a date: the session says so in Chinese, without a flag name.
    const {text, values} = await everything(repo, [
      'm',
      'load',
      'core',
      'a',
      'r',
      '重复',
      'd',
      '2020-01-01',
      '下周',
      '2026-12-31',
      'q',
    ])
    let rest = text
    // The field values a modify gives, and the date a deferral shows, are values too.
    const verbatim = [
      ...values,
      ...PROTECTED_TOKENS,
      ...MODIFIABLE,
      'core',
      'recall',
      '2026-12-31T00:00:00Z',
      '2026-11-29T10:00:00Z',
    ]
    for (const token of verbatim.filter(Boolean).sort((a, b) => b.length - a.length)) rest = rest.split(token).join(' ')
    // C1, C2 ... label candidates in both of seed 000's template variants; "a) 批准" and "[a]批准" show the key to type.
    rest = rest
      .replace(/\bC\d+\b/g, ' ')
      .replace(/^ {2}[a-z]\) /gm, ' ')
      .replace(/\[[a-z]\]/g, ' ')
    expect(rest.match(/[A-Za-z]+/g)).toBeNull()
    expect(text).toContain('这个日期已经过去（现在是 2026-11-29T10:00:00Z）：请给出更晚的日期。')
    expect(text).toContain('这不是日期：请按 YYYY-MM-DD 输入，例如 2026-12-31。')
    expect(text).toContain('\nlayer 判定：personal — 提交到个人仓库：跨项目通用，不绑定本项目代码。\n')
    expect(text).toContain(
      '已批准 1，已拒绝 1，已推迟 1，已修改 1，已跳过 0。\n另有 1 张卡片留待以后：再次运行 cairn review 来决定。',
    )
  })
})
