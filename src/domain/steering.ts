import {getRule} from './card/sections.js'
import type {Card} from './card/schema.js'
import {cardSegments, fingerprint, type SecretHit, type Segment} from './secrets.js'

/**
 * Text that steers an agent rather than teaching it (DESIGN: Trust and receipts). A card is injected into every
 * teammate's session, so its text is refused at any write, like a secret, when it tries to override the agent's
 * instructions, hides characters, carries raw HTML, images or links to hosts outside an allow-list, long encoded blobs,
 * or commands that fetch and run code or send data out. English and Chinese. Pure: the content check runs it beside the
 * secret rules, and a false positive is allowed by its fingerprint under secrets.allow.
 */

export type SteeringClass = 'override' | 'hidden' | 'html' | 'link' | 'blob' | 'network'

export interface SteeringFinding {
  class: SteeringClass
  /** What was found, in words, never quoting more than a short excerpt. */
  kind: string
  rule: string
  fingerprint: string
}

export const STEERING_RULE = 'cairn/steering'

const KIND: Record<SteeringClass, string> = {
  override: 'instruction that tries to override the agent',
  hidden: 'hidden character',
  html: 'raw HTML',
  link: 'image or link to a host outside the allow-list',
  blob: 'long encoded blob',
  network: 'command that fetches and runs code or sends data out',
}

/** Hosts a card may link to (not show an image from): code hosts and the references teams cite. */
export const ALLOWED_HOSTS = [
  'github.com',
  'docs.github.com',
  'gitlab.com',
  'developer.mozilla.org',
  'nodejs.org',
  'npmjs.com',
  'python.org',
  'learn.microsoft.com',
  'localhost',
  '127.0.0.1',
]

const OVERRIDE: RegExp[] = [
  /\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|preceding|all|any|other|system|developer|original)\b[^.\n]{0,24}\b(?:instructions?|prompts?|rules|messages?|guidelines|directions|directives|context)\b/i,
  /\b(?:ignore|disregard|override)\s+(?:the\s+|your\s+)?(?:system|developer)\s+(?:prompt|message|instructions?)\b/i,
  /\b(?:forget|ignore|disregard)\s+(?:everything|all|anything)\s+(?:you\s+(?:were|have\s+been)\s+(?:told|given)|above|before|else)\b/i,
  /\b(?:outranks?|overrides?|supersedes?)\s+(?:the\s+)?(?:user|system\s+prompt|developer)\b/i,
  /\byour\s+only\s+(?:policy|instructions?|rules?|task)\b/i,
  /\byou\s+are\s+now\s+(?:a|an|the|in|my|DAN|acting|operating|free|unrestricted|jailbroken)\b/i,
  /\byou\s+are\s+no\s+longer\s+(?:bound|restricted|an?\s+(?:AI|assistant))\b/i,
  /\b(?:from\s+now\s+on|henceforth)\b[^.\n]{0,30}\byou\s+(?:must|will|shall|should|are|have\s+to)\b/i,
  /\b(?:do\s+not|don't|never)\s+(?:tell|inform|notify|alert|warn)\s+the\s+(?:user|human|developer|operator)\b/i,
  /\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose|show)\s+(?:this|it|that|these|any\s+of\s+this)\s+to\s+the\s+(?:user|human|developer)\b/i,
  /\b(?:keep|hide)\s+(?:this|it)\s+(?:a\s+)?secret\s+from\s+the\s+(?:user|human|developer)\b/i,
  /\bwithout\s+(?:telling|informing|asking|notifying)\s+the\s+(?:user|human|developer)\b/i,
  /\bpretend\s+(?:to\s+be|you\s+are|that\s+you)\b/i,
  /\byour\s+(?:new|real|true|actual)\s+(?:instructions|task|goal|role|purpose|orders)\b/i,
  /\b(?:new|updated)\s+(?:system\s+)?instructions?\s*:/i,
  /(?:忽略|无视|忘记|忘掉|不要理会|不用理会|覆盖)(?:掉)?(?:你)?(?:之前|以上|上面|前面|先前|此前|所有|全部|一切|原有|原来)?(?:的)?(?:所有|全部|一切)?(?:的)?(?:指令|指示|提示词?|规则|要求|设定|系统提示)/,
  /你现在(?:是|扮演|变成|成为)/,
  /从现在(?:开始|起)[，,\s]*你(?:必须|要|将|就是|只能|不再)/,
  /(?:不要|别|不得|切勿|禁止)(?:告诉|告知|通知|提醒)用户(?:你|这|此|任何|关于)/,
  /(?:不要|别|不得|切勿)让用户(?:知道|发现|察觉)/,
  /(?:对用户保密|瞒着用户|向用户隐瞒)/,
  /假装(?:你是|自己是|成)/,
  /你的(?:新|真正的?|实际的?)(?:指令|任务|角色|目标)/,
  /(?:新的?|更新的?)(?:系统)?指令[:：]/,
]

/**
 * Text a reader does not see: every format character (bidirectional controls and marks, zero-width characters, soft
 * hyphens, invisible operators, tag characters) but a joiner inside an emoji, the Hangul fillers and the combining
 * grapheme joiner, the supplementary variation selectors that smuggle bytes after an emoji, and two variation selectors
 * in a row (one is an emoji's own).
 */
const HIDDEN =
  /(?!\u200D)\p{Cf}|[\u3164\u115F\u1160\uFFA0\u034F]|[\u{E0100}-\u{E01EF}]|[\uFE00-\uFE0F]{2,}|(?<!\p{Extended_Pictographic}[\u{1F3FB}-\u{1F3FF}\uFE0F]?)\u200D|\u200D(?!\p{Extended_Pictographic})/gu

const HTML_TAGS =
  'a|abbr|b|base|body|br|button|center|code|details|div|em|embed|font|form|frame|h[1-6]|head|hr|html|i|iframe|img|input|link|meta|object|p|picture|pre|script|source|span|strong|style|summary|svg|table|td|template|textarea|th|tr|u|video|audio|marquee'
const HTML = new RegExp(`<!--|<\\/?(?:${HTML_TAGS})(?:\\s[^<>]*)?\\/?>`, 'gi')

const IMAGE = /!\[[^\]\n]{0,500}\]\(\s*<?[^)\s]+/g
const URL = /\b(?:https?|ftp):\/\/([^\s/?#<>()\]"'`]+)/gi
/**
 * A run of base64 or base64url (at least 100 characters, mixing cases and digits) or of hex (at least 80). A run is
 * only tried from its first character: from any later one it is shorter, so it matches nothing more, and each word of
 * prose costs one try instead of one per letter.
 */
const BASE64 = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{100,}={0,2}/g
const HEX = /\b[0-9a-fA-F]{80,}\b/g

const NETWORK: RegExp[] = [
  // Every gap is bounded, so a field of a thousand "curl " costs a pass, not a square.
  /\b(?:curl|wget|fetch)\b[^\n|;]{0,300}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b/i,
  /\b(?:curl|wget)\b[^\n|;]{0,300}\|\s*(?:sudo\s+)?(?:python3?|node|perl|ruby)\b/i,
  /\b(?:curl|wget)\b[^\n]{0,300}\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|--post-file|--post-data)[\s=]/i,
  /\b(?:nc|ncat|netcat)\b[^\n]{0,300}\s-(?:e|c)\s/i,
  /\/dev\/tcp\//,
  /\bbash\s+-i\s+>&/i,
  /\b(?:Invoke-WebRequest|iwr|Invoke-RestMethod|irm|DownloadString)\b[^\n]{0,300}(?:\|\s*(?:iex|Invoke-Expression)\b)/i,
  /\b(?:iex|Invoke-Expression)\s*\(\s*(?:New-Object\s+Net\.WebClient|\(?\s*(?:iwr|irm|Invoke-WebRequest))/i,
  /(?:~\/\.ssh|id_rsa|id_ed25519|\.aws\/credentials|\.npmrc|\.netrc|\.pypirc|\.docker\/config\.json|\.env\b)[^\n]{0,80}(?:curl|wget|nc\b|scp|https?:\/\/|发送|上传|发到|传到)/i,
  /(?:curl|wget|scp|nc\b|发送|上传|发到|传到)[^\n]{0,80}(?:~\/\.ssh|id_rsa|id_ed25519|\.aws\/credentials|\.npmrc|\.netrc|\.pypirc|\.env\b)/i,
]

// Every pattern above is global: it is read only with matchAll and replace, which keep no state between calls.

/** Each list as one pattern: one pass over the text, however many phrasings it knows (a 10,000-card lint runs it often). */
const anyOf = (list: RegExp[]): RegExp => new RegExp(list.map(r => `(?:${r.source})`).join('|'), 'gi')
const OVERRIDE_ANY = anyOf(OVERRIDE)
const NETWORK_ANY = anyOf(NETWORK)

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/
/** A code span: a backtick run not escaped by a backslash (GitHub shows \` as a backtick), closed by a run as long. */
const CODE_SPAN = /(?<!(?:^|[^\\])(?:\\\\)*\\)(`+)[^`\n][^\n]*?\1(?!`)/g

/**
 * Fenced code blocks and code spans, blanked: HTML or a URL there is shown as code, not rendered or followed. A fence
 * closes on a line of its own character at least as long (CommonMark), so a block quoting a shorter fence stays code.
 */
function outsideCode(text: string): string {
  if (!text.includes('`') && !text.includes('~~~')) return text
  let open: string | null = null
  const lines = text.split('\n').map(line => {
    const f = FENCE_LINE.exec(line)
    if (open === null) {
      if (!f || (f[1][0] === '`' && f[2].includes('`'))) return line
      open = f[1]
      return ''
    }
    if (f && f[1][0] === open[0] && f[1].length >= open.length && f[2].trim() === '') open = null
    return ''
  })
  return lines.join('\n').replace(CODE_SPAN, m => ' '.repeat(m.length))
}

/** The host of a URL as the allow-list compares it: lower case, no port, no leading www. */
const bareHost = (host: string): string =>
  host
    .toLowerCase()
    .replace(/:\d+$/, '')
    .replace(/^www\./, '')

const allowedHost = (host: string, more: readonly string[]): boolean => {
  const h = bareHost(host)
  return [...ALLOWED_HOSTS, ...more].some(a => h === a || h.endsWith(`.${a}`))
}

/**
 * What in one piece of a card's text steers an agent; each class found once, with a fingerprint of what tripped it.
 * `hosts` adds to the link allow-list (the store's content.allow_hosts); each covers its subdomains.
 */
export function steeringFindings(text: string, hosts: readonly string[] = []): SteeringFinding[] {
  const out: SteeringFinding[] = []
  const seen = new Set<string>()
  const add = (cls: SteeringClass, found: string) => {
    const print = fingerprint(`${STEERING_RULE}-${cls}`, found)
    if (seen.has(print) || out.filter(f => f.class === cls).length >= MAX_PER_CLASS) return
    seen.add(print)
    out.push({class: cls, kind: KIND[cls], rule: `${STEERING_RULE}-${cls}`, fingerprint: print})
  }
  const prose = outsideCode(text)
  for (const m of matches(OVERRIDE_ANY, text)) add('override', m[0].toLowerCase())
  for (const m of matches(HIDDEN, text)) add('hidden', m[0])
  for (const m of matches(HTML, prose)) add('html', m[0].toLowerCase())
  for (const m of matches(IMAGE, prose)) add('link', m[0])
  for (const m of matches(URL, prose)) if (!allowedHost(m[1], hosts)) add('link', m[0])
  for (const m of matches(BASE64, text))
    if (/[0-9]/.test(m[0]) && /[a-z]/.test(m[0]) && /[A-Z]/.test(m[0])) add('blob', m[0])
  // Encoded data spreads over its alphabet; a run of one repeated character ("bbbb…", a ruler of zeros) is not.
  for (const m of matches(HEX, text)) if (new Set(m[0]).size >= 8) add('blob', m[0])
  for (const m of matches(NETWORK_ANY, text)) add('network', m[0])
  return out
}

/** At most this many findings of one class in one field: each allowed fingerprint hides only its own text. */
const MAX_PER_CLASS = 10

/** Each global pattern without its g flag: test() on it keeps no state between calls. */
const testers = new Map<RegExp, RegExp>()
const tester = (re: RegExp): RegExp => {
  let t = testers.get(re)
  if (!t) testers.set(re, (t = new RegExp(re.source, re.flags.replace('g', ''))))
  return t
}

/**
 * The matches of a global pattern, at most a few dozen: enough to name every distinct one a field could hold. Most
 * text holds none: one test() says so without the copy of the pattern and the iterator matchAll makes.
 */
function* matches(re: RegExp, text: string): Generator<RegExpExecArray> {
  if (!tester(re).test(text)) return
  let n = 0
  for (const m of text.matchAll(re)) {
    yield m
    if (++n >= 50) return
  }
}

/** What neutralized() changed in a rule file, counted for the import's note. */
export interface Neutralized {
  text: string
  comments: number
  hidden: number
  /** Links and images to hosts outside the allow-list, now shown as their URL in a code span. */
  links: number
}

const COMMENT = /<!--[^]*?-->/g
const MD_LINK = /(!?)\[([^\]\n]{0,500})\]\(\s*<?((?:https?|ftp):\/\/[^\s)>]+)>?(?:\s+"[^"\n]*")?\s*\)/gi
const AUTOLINK = /<((?:https?|ftp):\/\/[^\s<>]+)>/gi
const BARE = /(?<![`\w/])((?:https?|ftp):\/\/[^\s<>()\]"'`]*[^\s<>()\]"'`.,;:!?])/gi

/**
 * Text of a rule file made safe to import without losing what a reader sees (cairn import): HTML comments (invisible
 * when rendered) and hidden characters are removed, and a link or image to a host outside the allow-list becomes its
 * text and its URL in a code span, read as a citation rather than followed or rendered. Fenced blocks and code spans
 * are kept; what is left that steers an agent the content check still refuses.
 */
export function neutralized(source: string, hosts: readonly string[] = []): Neutralized {
  const out: Neutralized = {text: '', comments: 0, hidden: 0, links: 0}
  const text = source.replace(HIDDEN, () => {
    out.hidden++
    return ''
  })
  const prose = (chunk: string) => {
    // A comment shown as code (`<!-- prettier-ignore -->`) is text a reader sees: only the others go.
    let comments = 0
    const bare = (piece: string) =>
      piece.replace(COMMENT, () => {
        comments++
        return ''
      })
    const kept = outsideSpans(chunk, bare)
    out.comments += comments
    // A comment on a line of its own leaves a blank one: runs of blank lines are one, as Markdown reads them.
    const shown = comments ? kept.replace(/\n[ \t]*\n(?:[ \t]*\n)+/g, '\n\n') : chunk
    return citeLinks(shown, hosts, out)
  }
  out.text = mapOutsideFences(text, prose)
  return out
}

/** Links and images to hosts outside the allow-list, as their text and URL in a code span; code spans are kept. */
function citeLinks(text: string, hosts: readonly string[], out: Neutralized): string {
  const outside = (url: string) => {
    const host = /^[a-z]+:\/\/([^\s/?#<>()\]"'`]+)/i.exec(url)?.[1]
    return host !== undefined && !allowedHost(host, hosts)
  }
  const cite = (url: string, said = '') => {
    out.links++
    return said ? `${said} (\`${url}\`)` : `\`${url}\``
  }
  // A link's label may hold a code span ([`uv`](https://…)): links are found first, except those inside a code span.
  const spans = [...text.matchAll(CODE_SPAN)].map(m => [m.index, m.index + m[0].length])
  const inCode = (at: number) => spans.some(([a, b]) => at >= a && at < b)
  const linked = text.replace(MD_LINK, (whole, bang: string, label: string, url: string, at: number) =>
    inCode(at) || (!bang && !outside(url)) ? whole : cite(url, label.trim()),
  )
  return linked
    .split(/((`+)[^`\n][^\n]*?\2(?!`))/)
    .map((piece, i) =>
      i % 3 !== 0
        ? piece
        : piece
            .replace(AUTOLINK, (whole, url: string) => (outside(url) ? cite(url) : whole))
            .replace(BARE, (whole, url: string, at: number, all: string) =>
              outside(url) && all[at - 1] !== '(' ? cite(url) : whole,
            ),
    )
    .filter((_, i) => i % 3 !== 2)
    .join('')
}

/** Applies `prose` to the text outside fenced code blocks, which are kept byte for byte. */
function mapOutsideFences(text: string, prose: (chunk: string) => string): string {
  const blocks: {code: boolean; lines: string[]}[] = []
  let open: string | null = null
  for (const line of text.split('\n')) {
    const f = FENCE_LINE.exec(line)
    const code = open !== null || (f !== null && !(f[1][0] === '`' && f[2].includes('`')))
    if (open === null && code) open = f![1]
    else if (open !== null && f && f[1][0] === open[0] && f[1].length >= open.length && f[2].trim() === '') open = null
    const last = blocks.at(-1)
    if (last && last.code === code) last.lines.push(line)
    else blocks.push({code, lines: [line]})
  }
  return blocks.map(b => (b.code ? b.lines.join('\n') : prose(b.lines.join('\n')))).join('\n')
}

/**
 * Steering in one piece of a card, as the content check reports it. Every field counts: session start prints scope
 * paths, a stale note evidence paths, and `cairn show` the whole file. Only the approval and the triggers cairn derived
 * from text already scanned are left out. The body holds the rule in cairn's own fenced block: its text is the
 * author's prose, and read as such.
 */
export function steeringHits(segment: Segment, hosts: readonly string[]): SecretHit[] {
  if (NOT_SHOWN.test(segment.field)) return []
  const found = steeringFindings(segment.text, hosts)
  const rule = segment.field === 'body' ? getRule(segment.text) : undefined
  if (rule) found.push(...steeringFindings(rule, hosts).filter(f => !found.some(o => o.class === f.class)))
  return found.map(f => ({
    file: segment.file,
    field: segment.field,
    kind: f.kind,
    rule: f.rule,
    fingerprint: f.fingerprint,
  }))
}
const NOT_SHOWN = /^(?:approved|recall\.derived_triggers)\b/

/** Every steering hit in a card, for review's mark (the write refuses them; one written by hand is shown there). */
export function cardSteering(file: string, card: Card, hosts: readonly string[] = []): SecretHit[] {
  return cardSegments(file, card).flatMap(s => steeringHits(s, hosts))
}

/** Applies `edit` to the text outside code spans, keeping the spans as they are. */
function outsideSpans(text: string, edit: (piece: string) => string): string {
  let out = ''
  let at = 0
  for (const m of text.matchAll(CODE_SPAN)) {
    out += edit(text.slice(at, m.index)) + m[0]
    at = m.index + m[0].length
  }
  return out + edit(text.slice(at))
}
