import {FILLER_WORDS, SLUG_MAX, SLUG_MIN} from '../card/slug.js'
import {CairnError, type Issue} from '../errors.js'
import type {StoreLanguage} from './language.js'

/**
 * Validation issues and lint problems, said again in a store's language by a stable key. The English message and fix
 * are written where the problem is found (domain/issues.ts, domain/propose.ts, domain/lint.ts, ...); that place also
 * gives the issue a `say`: this table's key and the values the message names. A store that speaks another language
 * gets the message and fix from here, chosen by the key, never by the English text, so the English can be reworded
 * freely. An issue with no `say` (a setting's own rule sentence, a parser's error) keeps its English words.
 * Field names, ids, paths, values, commands and flags stay verbatim in every language.
 */

type Empty = Record<never, never>
interface Said {
  message: string
  fix?: string
}

/** The card types and similar lists, quoted as the English fix quotes them. */
const quoted = (values: readonly string[]) => values.map(v => `"${v}"`).join('、')
const oneOf = (values: readonly string[]) => (values.length === 1 ? values[0] : `${values.join('、')} 之一`)
const NOUNS: Record<string, string> = {
  string: '文本',
  number: '数字',
  int: '整数',
  boolean: 'true 或 false',
  array: '列表',
  object: '字段映射',
  null: '空值',
}
const noun = (type = 'value') => NOUNS[type] ?? type
const STEERING_KIND: Record<string, string> = {
  override: '企图改写代理指令的话',
  hidden: '隐藏字符',
  html: '原始 HTML',
  link: '指向允许列表之外主机的图片或链接',
  blob: '很长的编码数据块',
  network: '下载并运行代码或向外发送数据的命令',
}
const STEERING_FIX: Record<string, string> = {
  override: '把它写成一条经验：说明该做什么、为什么；卡片不能对代理的指令或用户下命令',
  hidden: '删除这个隐藏字符（把它周围的文字重新输入一遍）',
  html: '改写成 Markdown，或把 HTML 放进代码片段或围栏代码块',
  link: '去掉图片；在代码片段里以文字引用页面，或把它的主机加到 content: allow_hosts: 下',
  blob: '引用生成它的文件或命令，不要直接粘贴',
  network: '删除这条命令；卡片不能让代理下载并运行代码，或向外发送文件',
}
const PATH_FIX = '给出相对于仓库根目录、使用正斜杠的路径，例如 src/app.ts'

/** The five slug rules (domain/card/slug.ts), said from the slug itself. */
function slugRule(rule: string, slug: string): string {
  const words = slug.split('-')
  if (rule === 'kebab-case') return `slug "${slug}" 违反规则 1（kebab-case：只能用小写字母、数字和单个连字符）`
  if (rule === 'semantic-core')
    return `slug "${slug}" 违反规则 4（只保留语义核心：去掉 ${quoted(words.filter(w => FILLER_WORDS.has(w)))}）`
  if (rule === 'word-count') return `slug "${slug}" 违反规则 2（2–5 个词；现在有 ${words.length} 个）`
  if (rule === 'length') return `slug "${slug}" 违反规则 3（${SLUG_MIN}–${SLUG_MAX} 个字符；现在有 ${slug.length} 个）`
  return `slug "${slug}" 违反 slug 规则`
}

const zh = {
  // Schema issues (domain/issues.ts zodIssues).
  unknownField: (a: {name: string; suggestions: string[]}): Said => ({
    message: '未知字段',
    fix: `删除 "${a.name}"，或检查拼写${a.suggestions.length ? `。你是不是想写 ${a.suggestions.map(s => `"${s}"`).join(' 或 ')}？` : ''}`,
  }),
  invalidValue: (a: {values: string[]; given?: string}): Said => ({
    message: a.given ? `${a.given} 不是 ${oneOf(a.values)}` : '取值无效',
    fix: `改用 ${oneOf(a.values)}`,
  }),
  required: (a: {field: string; expected?: string}): Said => ({
    message: '必填',
    fix: `添加 "${a.field}"${a.expected ? `（${a.expected}）` : ''}`,
  }),
  mustBe: (a: {expected?: string; found?: string}): Said => ({
    message: `必须是${noun(a.expected)}${a.found ? `（实际是${noun(a.found)}）` : ''}`,
    fix: `给出${noun(a.expected)}`,
  }),
  empty: (_: Empty): Said => ({message: '不能为空', fix: '给出一个值'}),
  minChars: (a: {n: number}): Said => ({message: `至少要有 ${a.n} 个字符`, fix: `加长到 ${a.n} 个字符或更多`}),
  maxChars: (a: {n: number}): Said => ({message: `最多 ${a.n} 个字符`, fix: `缩短到 ${a.n} 个字符或更少`}),
  minItems: (a: {n: number}): Said => ({message: `至少要有 ${a.n} 项`, fix: `至少添加 ${a.n} 项`}),
  maxItems: (a: {n: number}): Said => ({message: `最多 ${a.n} 项`, fix: `删掉一些，只留 ${a.n} 项或更少`}),
  moreThan: (a: {n: number}): Said => ({message: `必须大于 ${a.n}`, fix: `用大于 ${a.n} 的数`}),
  atLeast: (a: {n: number}): Said => ({message: `必须至少为 ${a.n}`, fix: `用 ${a.n} 或更大的数`}),
  lessThan: (a: {n: number}): Said => ({message: `必须小于 ${a.n}`, fix: `用小于 ${a.n} 的数`}),
  atMost: (a: {n: number}): Said => ({message: `最多为 ${a.n}`, fix: `用 ${a.n} 或更小的数`}),
  format: (a: {pattern?: string; format?: string}): Said => ({
    message: a.pattern ? `必须匹配 ${a.pattern}` : `必须是有效的 ${a.format}`,
    fix: '使用文档规定的格式',
  }),
  // A card's text (domain/card/text-checks.ts, schema.ts).
  controlChar: (a: {code: string; position: number}): Said => ({
    message: `在第 ${a.position} 个字符处含有控制字符 U+${a.code}`,
    fix: '删除它；只允许制表符和换行',
  }),
  backslash: (_: Empty): Said => ({message: '含有反斜杠', fix: PATH_FIX}),
  absolutePath: (_: Empty): Said => ({message: '是绝对路径', fix: PATH_FIX}),
  parentSegment: (_: Empty): Said => ({message: '含有 ".." 段，会跑出仓库', fix: PATH_FIX}),
  oneLine: (_: Empty): Said => ({message: '必须只占一行', fix: '每项只写一个符号'}),
  // The card file (domain/card/format.ts).
  cardTooLarge: (a: {bytes: number; max: number}): Said => ({
    message: `卡片有 ${a.bytes} 字节，超过了 ${a.max} 字节的上限`,
    fix: '缩短卡片；较长的材料放进链接的文档',
  }),
  notMapping: (_: Empty): Said => ({message: 'frontmatter 必须是 YAML 映射', fix: '用 "key: value" 的行写出字段'}),
  noFrontmatter: (_: Empty): Said => ({
    message: '缺少 YAML frontmatter',
    fix: '文件以一行 "---" 开头，接着写卡片字段，再以一行 "---" 结束',
  }),
  schemaNeeds: (a: {schema: string; field: string; needs: string}): Said => ({
    message: `是 ${a.schema}，但 ${a.field} 需要 ${a.needs}`,
    fix: `设置 schema: ${a.needs}`,
  }),
  unsafeId: (a: {id: string}): Said => ({
    message: `"${a.id}" 不是安全的 kebab-case id`,
    fix: '用单个连字符连接的小写单词',
  }),
  // A proposal (domain/propose.ts, app/propose.ts).
  noCards: (_: Empty): Said => ({message: '没有给出卡片', fix: '给出一个卡片对象，或一个非空数组'}),
  notObject: (_: Empty): Said => ({message: '必须是对象', fix: '每张卡片写成一个 JSON/YAML 对象'}),
  slugRequired: (_: Empty): Said => ({
    message: '必填',
    fix: '添加 "slug"：2–5 个词、20–40 个字符的 kebab-case 名称',
  }),
  slugDiffers: (a: {slug: string}): Said => ({message: `与 slug "${a.slug}" 不一致`, fix: '只给出 slug 和 id 之一'}),
  /** A broken slug rule; the fix tries the suggestion (propose) or renames to it (lint). */
  slug: (a: {rule: string; slug: string; suggestion?: string; fix: 'try' | 'rename'}): Said => ({
    message: slugRule(a.rule, a.slug),
    fix: a.suggestion
      ? a.fix === 'try'
        ? `试试 "${a.suggestion}"`
        : `改名为 "${a.suggestion}"`
      : a.fix === 'try'
        ? '选 2–5 个用连字符连接的小写单词，共 20–40 个字符'
        : undefined,
  }),
  typeRequired: (a: {types: string[]}): Said => ({message: '必填', fix: `添加 "type"：${oneOf(a.types)}`}),
  typeUnknown: (a: {type: string; types: string[]}): Said => ({
    message: `"${a.type}" 不是卡片类型`,
    fix: `改用 ${oneOf(a.types)}（也接受复数形式）`,
  }),
  proposalTooLarge: (a: {size: number; max: number; field: string}): Said => ({
    message: `卡片将有 ${a.size} 字节，超过了 ${a.max} 字节的上限`,
    fix: `缩短 "${a.field}"；较长的材料放进链接的文档`,
  }),
  slugTaken: (a: {id: string; path: string}): Said => ({
    message:
      `slug "${a.id}" 已被另一个提案 ${a.path} 占用。slug 在一个仓库内必须唯一（规则 5）：` +
      '加一个区分词，不要加数字。',
  }),
  slugUsed: (a: {id: string; path: string; archived: string | null}): Said => ({
    message:
      `slug "${a.id}" 已被 ${a.path} 使用` +
      (a.archived ? `（已归档；"cairn restore ${a.archived} ${a.id}" 可以恢复它）` : '') +
      '。slug 在一个仓库内必须唯一（规则 5）：加一个区分词。',
  }),
  // The secret and steering checks (domain/secrets.ts).
  secret: (a: {kind: string; fingerprint: string; configFile: string}): Said => ({
    message: `含有 ${a.kind}（指纹 ${a.fingerprint}）`,
    fix: `删除它，如果是真的就立即轮换；如果不是机密，把 "${a.fingerprint}" 列在 ${a.configFile} 的 secrets: allow: 下`,
  }),
  steering: (a: {cls: string; kind: string; fingerprint: string; configFile: string}): Said => ({
    message: `试图操控代理：${STEERING_KIND[a.cls] ?? a.kind}（指纹 ${a.fingerprint}）`,
    fix: `${STEERING_FIX[a.cls] ?? '换个说法'}；如果确属有意，把 "${a.fingerprint}" 列在 ${a.configFile} 的 secrets: allow: 下`,
  }),

  // Lint's own rules (domain/lint.ts, app/lint-reach.ts).
  fileName: (a: {id: string; name: string}): Said => ({
    message: `id "${a.id}" 与文件名 "${a.name}.md" 不一致`,
    fix: `把文件改名为 ${a.id}.md`,
  }),
  typeDir: (a: {type: string; dir: string}): Said => ({
    message: `type "${a.type}" 与所在目录 "${a.dir}/" 不一致`,
    fix: `把它移到 ${a.type}/ 下`,
  }),
  pendingActive: (_: Empty): Said => ({
    message: '待评审的卡片不能是 active：它还没有经过评审',
    fix: '用 "cairn review approve" 批准它，或设置 status: pending',
  }),
  reviewedPending: (_: Empty): Said => ({
    message: '已评审的卡片不能是 pending',
    fix: '设置 status: active，或把它移回 pending/',
  }),
  uniqueId: (a: {id: string; paths: string}): Said => ({
    message: `id "${a.id}" 也被 ${a.paths} 使用`,
    fix: '给其中一张换一个加了区分词的 slug',
  }),
  archivedTwice: (a: {id: string; paths: string}): Said => ({message: `id "${a.id}" 被归档了不止一次：${a.paths}`}),
  unknownSignal: (a: {id: string}): Said => ({
    message: `"${a.id}" 不是已注册的信号；匹配时会被忽略`,
    fix: '改用 "cairn signals list" 列出的 id，或在 .cairn/signals.yaml 中定义它',
  }),
  brokenLink: (a: {link: string}): Said => ({
    message: `指向 "${a.link}" 的链接找不到任何卡片`,
    fix: '修正 id，或删除这个链接',
  }),
  archivedLink: (a: {link: string}): Said => ({
    message: `指向 "${a.link}" 的链接指向一张已归档的卡片`,
    fix: `恢复 "${a.link}"，或去掉这个链接`,
  }),
  unknownCard: (a: {id: string}): Said => ({message: `"${a.id}" 不是已知的卡片`}),
  noSuccessor: (_: Empty): Said => ({
    message: '已被取代的卡片应当写明它的后继',
    fix: '把 superseded_by 设为取代它的卡片的 id',
  }),
  unreachable: (a: {id: string}): Said => ({
    message: '用它自己的标题和摘要作为提示都召回不到它，用户的话就更难找到它',
    fix:
      `给它写上适用时用户会输入的词：cairn review modify ${a.id} --set triggers=<短语>,<短语>` +
      '（或添加 criteria.use_when 短语）',
  }),
}

type Table = typeof zh
/** What an issue or a problem says, by key, with the values it names: how another language says it again. */
export type Say = {[K in keyof Table]: {key: K} & Parameters<Table[K]>[0]}[keyof Table]

/** The languages said from this table; English is said where the issue is found. */
const SAID: {readonly [L in Exclude<StoreLanguage, 'en'>]: Table} = {'zh-CN': zh}

/** What an issue says in the language: its own English words in an `en` store or without a key, else the table's. */
export function speakIssue<T extends {message: string; fix?: string; say?: Say}>(
  issue: T,
  language: StoreLanguage | undefined,
): T {
  if (!issue.say || !language || language === 'en') return issue
  const say = issue.say
  const said = (SAID[language][say.key] as (a: Say) => Said)(say)
  return {...issue, message: said.message, fix: said.fix}
}

/** One issue as a zh-CN error lists it: where (file and field, verbatim), what, and the fix. */
const zhLine = (i: {file?: string; field: string; message: string; fix?: string}): string => {
  const where = [i.file, i.field].filter(Boolean).join(': ')
  const stop = (s: string) => (/[。？！]$/.test(s) ? s : `${s}。`)
  return `  - ${where}：${stop(i.message)}${i.fix ? `修复：${stop(i.fix)}` : ''}`
}

/**
 * An error said again in the store's language: a validation error's issues, each by its key, under a lead in that
 * language; another error by the key its data carries (a slug already taken). Any other error, or an `en` store, is
 * returned as it is.
 */
export function speakError(error: unknown, language: StoreLanguage | undefined): unknown {
  if (!language || language === 'en' || !(error instanceof CairnError)) return error
  const data = error.data as {issues?: Issue[]; say?: Say} | undefined
  if (error.code !== 'validation') {
    if (!data?.say) return error
    return new CairnError(error.code, speakIssue({message: error.message, say: data.say}, language).message, data)
  }
  if (!Array.isArray(data?.issues) || !data.issues.length) return error
  const issues = data.issues.map(i => speakIssue(i, language))
  const lead = issues.length === 1 ? '输入无效：' : `输入无效（${issues.length} 个问题）：`
  return new CairnError('validation', [lead, ...issues.map(zhLine)].join('\n'), {...data, issues})
}
