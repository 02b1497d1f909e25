import {type Span, spanCursor} from './context.js'

/**
 * The signal registry (seed 002): task shapes the matcher can recognise in a prompt. A card names
 * signal ids in engine_hints; the registry owns what each id means, so scoring has no private
 * whitelist. Patterns are regular expressions over the normalised prompt (NFKC, lowercase).
 */
export interface Signal {
  id: string
  polarity: 'positive' | 'negative'
  /** A gating positive signal is a routing gate as well as evidence: a card that names it needs it. */
  gating: boolean
  description: string
  patterns: {en: string[]; zh: string[]}
  /** For a negative signal: the positive signals it suppresses. */
  targets: string[]
  /**
   * For a negative signal naming an intent that is not the card's task (editing docs, explaining,
   * renaming): when it fires, the admission score of every card whose own title and phrases do
   * not fire it is multiplied by this.
   */
  discount?: number
  /**
   * A built-in intent's counter-patterns: a prompt that also holds one of these asks for a change
   * ("the reviewer asked why it fails; fix it"), so the intent does not fire.
   */
  unless?: {en: string[]; zh: string[]}
  source: 'generic' | 'pack' | 'project'
  pack: string | null
}

export const BUILTIN_SIGNALS: readonly Signal[] = [
  {
    id: 'ui_surface',
    polarity: 'positive',
    gating: true,
    source: 'generic',
    pack: null,
    targets: [],
    description: 'Work on a real UI: browser, page, viewport or visible frontend behaviour.',
    patterns: {
      en: [
        String.raw`\b(ui|ux|frontend|front-end|browser|viewport|web ?page|page|screen|layout|css|dom|button|modal|e2e|end-to-end|playwright|cypress|visual)\b`,
      ],
      zh: ['前端', '浏览器', '页面', '界面', '视口', '样式', '布局', '按钮', '表单', '弹窗', '移动端'],
    },
  },
  {
    id: 'ui_surface_noise',
    polarity: 'negative',
    gating: false,
    source: 'generic',
    pack: null,
    targets: ['ui_surface'],
    description: 'UI words are noise here: they appear only in wording, copy or documentation examples.',
    patterns: {
      en: [
        String.raw`\bui (wording|copy|text|strings?)\b`,
        String.raw`\b(docs?|documentation) examples?\b`,
        String.raw`\bjust (an? )?examples?\b`,
        String.raw`\bnoise\b`,
      ],
      zh: ['噪声', '噪音', '文案', '文档示例', '只是.{0,8}(示例|例子|文档)'],
    },
  },
  {
    id: 'worktree_diff_operation',
    polarity: 'positive',
    gating: true,
    source: 'generic',
    pack: null,
    targets: [],
    description: 'An operation on a dirty worktree: status, diff, staging or the scope of a commit.',
    patterns: {
      en: [
        String.raw`\bgit (status|diff|add|commit|stash|reset|restore|checkout)\b`,
        String.raw`\b(stage|staged|staging|unstaged|commit|commits|committing)\b`,
        String.raw`\b(dirty|worktree|work ?tree|working tree)\b`,
        String.raw`\bdiff\b`,
      ],
      zh: ['暂存', '提交', '工作区', '工作树', '脏文件', '改动范围'],
    },
  },
  {
    id: 'provider_adapter_boundary',
    polarity: 'positive',
    gating: true,
    source: 'generic',
    pack: null,
    targets: [],
    description: 'Work on the boundary between an agent provider and a shared runtime: hook adapters, hook I/O.',
    patterns: {
      en: [
        String.raw`\b(userpromptsubmit|additionalcontext|pretooluse|posttooluse|sessionstart)\b`,
        String.raw`\bprovider[- ](neutral|adapter|adapters|boundary|hook)\b`,
        String.raw`\b(claude|codex|gemini|cursor|copilot)( code)? hooks?\b`,
        String.raw`\bhook (adapter|runtime|payload|input|output)s?\b`,
      ],
      zh: ['适配层', '适配器', 'provider ?适配', 'hook ?适配', '提供方'],
    },
  },
  {
    id: 'runtime_reference_context',
    polarity: 'negative',
    gating: false,
    source: 'generic',
    pack: null,
    targets: ['provider_adapter_boundary'],
    description: 'Runtime words appear only in docs, fixtures, simulations, UI copy, hypotheticals or prohibitions.',
    patterns: {
      en: [
        String.raw`\b(in|from) (the )?(docs|documentation|readme)\b`,
        String.raw`\b(fixture|mocked|simulated|simulation|hypothetical|hypothetically)\b`,
        String.raw`\bfor example\b`,
      ],
      zh: ['文档里', '文档中', '示例', '模拟', '假设', '夹具', '文案'],
    },
  },
  {
    id: 'external_model_review',
    polarity: 'positive',
    gating: true,
    source: 'generic',
    pack: null,
    targets: [],
    description: 'A review by an external or second model, anchored on sources, with a verdict boundary.',
    patterns: {
      en: [
        String.raw`\b(external|second|another|multi-?|cross-?)[- ]?models? reviews?\b`,
        String.raw`\b(ask|have|let) (gpt|gemini|claude|codex|another model|an external model)( to)? review\b`,
        String.raw`\breview (by|with|from) (gpt|gemini|claude|codex|another model|an external model)\b`,
        String.raw`\bsecond opinion\b`,
      ],
      zh: [
        '外部模型',
        '多模型',
        '交叉审查',
        '交叉评审',
        '第二意见',
        '让 ?(gpt|gemini|claude|codex) ?(审查|评审|review)',
      ],
    },
  },
  {
    id: 'docs_only',
    polarity: 'negative',
    gating: false,
    source: 'generic',
    pack: null,
    targets: [],
    discount: 0.2,
    description: 'Only documentation or wording changes: a typo, a link, a translation, the text of a message.',
    patterns: {
      en: [
        String.raw`\b(typos?|misspell\w*|spelling|grammar (mistakes?|errors?|checks?)|grammatical|broken links?|dead links?|wording|rephrase|reword|proofread\w*)\b`,
        String.raw`\b(readme|changelog|contributing|docs?|documentation|onboarding doc)\b.{0,40}\b(section|paragraph|page|wording|link|typo|example)s?\b`,
        String.raw`\btranslat(e|ion|ing)\b`,
      ],
      zh: [
        '错别字',
        '笔误',
        '拼写',
        '措辞',
        '文案',
        '翻译',
        '译成',
        '文档里',
        '文档中',
        '链接失效',
        '死链',
        '语法对不对',
        '语病',
        '润色',
      ],
    },
  },
  {
    id: 'explain_only',
    polarity: 'negative',
    gating: false,
    source: 'generic',
    pack: null,
    targets: [],
    discount: 0.3,
    description:
      "A question about a concept or the project's past, with no change to make: explain, define, compare, when or who.",
    patterns: {
      en: [
        String.raw`\bexplain\b`,
        String.raw`\bconceptually\b`,
        String.raw`\bwhat('s| is) the difference\b`,
        String.raw`\bdifference between\b`,
        String.raw`\bwhat does \S+( \S+){0,3} (stand for|mean)\b`,
        String.raw`^(what|who) (is|are) (a|an)\b`,
        String.raw`\bin (simple|plain) (terms|words)\b`,
        String.raw`\bwhat (a|an) \S+( \S+){0,3} even (is|are)\b`,
        String.raw`\b(when did|who (wrote|added|introduced))\b`,
        String.raw`\bwhat does \S+( \S+){0,4} do\b`,
        String.raw`\bjust curious\b`,
        String.raw`\bwhich \S+( \S+){0,3} (does|do|did) .{0,60}\buse\?`,
      ],
      zh: [
        '解释',
        '讲讲',
        '讲解',
        '科普',
        '原理',
        '是什么意思',
        '什么是',
        '是怎么产生的',
        '不用改代码',
        '不改代码',
        '是哪天',
        '是什么时候发生的',
        '是谁(写|加|引入)的',
        '用的是(哪|什么)',
      ],
    },
    // A question asked on the way to a change is no explanation only.
    unless: {
      en: [
        String.raw`\b(fix|fixes|fixing|implement|refactor|add|revert|remove|delete|update|change|create|migrate|rewrite|replace|switch|swap|move)\b`,
      ],
      zh: [
        '修复',
        '修一下',
        '修好',
        '实现',
        '重构',
        '添加',
        '加上',
        '加一个',
        '删除',
        '删掉',
        '帮我改',
        '改成',
        '改为',
      ],
    },
  },
  {
    id: 'rename_only',
    polarity: 'negative',
    gating: false,
    source: 'generic',
    pack: null,
    targets: [],
    discount: 0.2,
    description: 'Only a rename: a variable, a file or a directory gets a new name.',
    patterns: {
      en: [String.raw`\brenam(e|es|ed|ing)\b`],
      zh: ['重命名', '改名', '改个名', '换个名字'],
    },
  },
]

/** One match of a pattern; index counts UTF-16 code units, as String and RegExp do. */
export interface SignalMatch {
  index: number
  text: string
}

/** A compiled pattern: its matches in a text, leftmost first, computed as they are consumed. */
export interface SignalPattern {
  matches(text: string): Iterable<SignalMatch>
}

export type PatternCompiler = (source: string) => SignalPattern

export interface Registry {
  signals: Map<string, Signal>
  compiled: Map<string, SignalPattern[]>
}

/** Built-in patterns are ours and reviewed, so they stay on native RegExp, which the prompt path loads anyway. */
const nativePattern: PatternCompiler = source => {
  const re = new RegExp(source, 'gu')
  return {
    *matches(text) {
      for (const m of text.matchAll(re)) yield {index: m.index, text: m[0]}
    },
  }
}

/**
 * The built-in signals, then the project's. Project patterns come from a file anyone can edit, so
 * they need a linear-time compiler (compileRe2 in re2-pattern.ts); the signature makes it impossible
 * to forget.
 */
export function buildRegistry(): Registry
export function buildRegistry(project: readonly Signal[], compile: PatternCompiler): Registry
export function buildRegistry(project: readonly Signal[] = [], compile?: PatternCompiler): Registry {
  const signals = new Map<string, Signal>()
  const compiled = new Map<string, SignalPattern[]>()
  const add = (s: Signal, c: PatternCompiler) => {
    signals.set(s.id, s)
    compiled.set(
      s.id,
      [...s.patterns.en, ...s.patterns.zh].map(p => c(p)),
    )
  }
  for (const s of BUILTIN_SIGNALS) add(s, nativePattern)
  for (const s of project) add(s, compile!)
  return {signals, compiled}
}

export interface Fired {
  id: string
  /** The text that fired it (first occurrence outside mention spans for a positive signal). */
  match: string
}

/**
 * Signals present in a normalised prompt. A positive signal seen only inside a mention span
 * ("this is not a provider adapter task") does not fire; a negative one fires anywhere.
 */
export function detectSignals(registry: Registry, text: string, spans: readonly Span[]): Map<string, Fired> {
  const fired = new Map<string, Fired>()
  for (const [id, patterns] of registry.compiled) {
    const signal = registry.signals.get(id)!
    // A task shape, or an intent, seen only in a mention ("not a rename") is not the task.
    const positive = signal.polarity === 'positive' || signal.discount !== undefined
    for (const pattern of patterns) {
      const mentioned = spanCursor(spans)
      let hit: string | undefined
      for (const m of pattern.matches(text)) {
        if (positive && mentioned(m.index)) continue
        hit = m.text
        break
      }
      if (hit !== undefined) {
        if (!asksForChange(signal, text, spans)) fired.set(id, {id, match: hit})
        break
      }
    }
  }
  return fired
}

/** The registry for a store's project signals; re2js (about 25 ms to import) loads only when there are some. */
export async function signalRegistry(project: readonly Signal[]): Promise<Registry> {
  if (project.length === 0) return buildRegistry()
  const {compileRe2} = await import('./re2-pattern.js')
  return buildRegistry(project, compileRe2)
}

const counters = new WeakMap<Signal, RegExp[]>()

/** Whether a built-in intent's counter-pattern (Signal.unless) holds outside mention spans ("no need to fix it" is none). */
function asksForChange(signal: Signal, text: string, spans: readonly Span[]): boolean {
  if (!signal.unless) return false
  let res = counters.get(signal)
  if (!res) counters.set(signal, (res = [...signal.unless.en, ...signal.unless.zh].map(p => new RegExp(p, 'gu'))))
  return res.some(re => {
    // A cursor per pattern: each walks the prompt from its start.
    const mentioned = spanCursor(spans)
    return [...text.matchAll(re)].some(m => !mentioned(m.index))
  })
}
