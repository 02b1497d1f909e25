import {createHash} from 'node:crypto'
import type {Card} from './card/schema.js'
import type {Issue} from './errors.js'

/**
 * The pure half of the secret check: which text of a card is scanned, what a finding is called,
 * and cairn's own credential-assignment heuristic. store/secrets.ts runs the rule set.
 */

export interface SecretHit {
  file: string
  /** Frontmatter key path (`summary`, `recall.triggers[1]`), `body`, or `(content)` for a file that does not parse. */
  field: string
  /** A human name, e.g. "GitHub token". */
  kind: string
  rule: string
  /** Stable across files and machines, and never the value: what `secrets.allow` lists. */
  fingerprint: string
}

/** One piece of text to scan and where it came from. */
export interface Segment {
  file: string
  field: string
  text: string
}

// Fields the schema holds to an enum, a slug or a timestamp: no secret fits in them.
const CONSTRAINED = new Set([
  'schema',
  'id',
  'type',
  'status',
  'load',
  'language',
  'recall.policy',
  'recall.risk',
  'recall.confidence',
  'scope.level',
  'created',
  'updated',
  'deferred_until',
  'approved.at',
])

/** Every free-text string of the card, each with its field path, and the body. */
export function cardSegments(file: string, card: Card): Segment[] {
  const {body, ...frontmatter} = card
  return [...recordSegments(file, frontmatter), {file, field: 'body', text: body}]
}

/** Every free-text string of a record (a card's frontmatter, or a proposal before it is a card), by its field path. */
export function recordSegments(file: string, record: object): Segment[] {
  const out: Segment[] = []
  const walk = (value: unknown, field: string) => {
    if (typeof value === 'string') {
      if (!CONSTRAINED.has(field)) out.push({file, field, text: value})
    } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${field}[${i}]`))
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, field ? `${field}.${k}` : k)
    }
  }
  walk(record, '')
  return out
}

export function fingerprint(rule: string, value: string): string {
  return createHash('sha256').update(`${rule}\0${value}`).digest('hex').slice(0, 16)
}

const RULE_KINDS: Record<string, string> = {
  aws: 'AWS secret',
  gcp: 'GCP service account key',
  privatekey: 'private key',
  npm: 'npm token',
  basicauth: 'password in a URL',
  slack: 'Slack token',
  sendgrid: 'SendGrid API key',
  shopify: 'Shopify token',
  github: 'GitHub token',
  gitlab: 'GitLab token',
  grafana: 'Grafana token',
  openai: 'OpenAI API key',
  anthropic: 'Anthropic API key',
  groq: 'Groq API key',
  huggingface: 'Hugging Face token',
  linear: 'Linear API key',
  notion: 'Notion token',
  '1password': '1Password token',
  'database-connection-string': 'database connection string with a password',
  'hashicorp-vault': 'HashiCorp Vault token',
  vercel: 'Vercel token',
  databricks: 'Databricks token',
  docker: 'Docker token',
  figma: 'Figma token',
}
const MESSAGE_KINDS: Record<string, string> = {
  AWSAccessKeyID: 'AWS access key ID',
  AWSSecretAccessKey: 'AWS secret access key',
  IncomingWebhook: 'Slack webhook URL',
  // cairn's AWS rule: a shape, which may be AWS's own documentation example.
  AWSKeyIDShape: 'value shaped like an AWS access key ID',
  AWSSecretKeyShape: 'value shaped like an AWS secret access key',
}

/** The human name of what a rule found; an unknown rule (a newer preset) still gets a readable one. */
export function secretKind(rule: string, messageId?: string): string {
  if (messageId && MESSAGE_KINDS[messageId]) return MESSAGE_KINDS[messageId]
  if (rule === CREDENTIAL_RULE) return 'credential assignment with a high-entropy value'
  const short = rule.replace(/^@secretlint\/secretlint-rule-/, '')
  return RULE_KINDS[short] ?? `${short} secret`
}

/** How to mend each class of steering text (domain/steering.ts), before allowing it. */
const STEERING_FIX: Record<string, string> = {
  override:
    'say what to do and why, as a lesson; a card must not give the agent orders about its instructions or the user',
  hidden: 'delete the hidden character (retype the text around it)',
  html: 'write it as Markdown, or put the HTML in a code span or a fenced block',
  link: 'drop the image; cite a page as text in a code span, or add its host under content: allow_hosts:',
  blob: 'cite the file or command that makes it instead of pasting it',
  network: 'remove the command; a card must not have the agent fetch and run code or send files out',
}
// steering.ts's STEERING_RULE and a dash: spelled here because steering.ts imports this module.
const STEERING_PREFIX = 'cairn/steering-'
/** Whether a finding is the steering check's (domain/steering.ts) rather than a secret rule's. */
export const isSteering = (hit: Pick<SecretHit, 'rule'>): boolean => hit.rule.startsWith(STEERING_PREFIX)

/** A finding of the secret check or of the steering check, as a validation issue that says how to mend or allow it. */
export function secretIssue(hit: SecretHit, configFile: string): Issue {
  if (isSteering(hit))
    return {
      file: hit.file,
      field: hit.field,
      message: `steers the agent: ${hit.kind} (fingerprint ${hit.fingerprint})`,
      fix:
        `${STEERING_FIX[hit.rule.slice(STEERING_PREFIX.length)] ?? 'reword it'}; if it is meant, list ` +
        `"${hit.fingerprint}" under secrets: allow: in ${configFile}`,
      say: {
        key: 'steering',
        cls: hit.rule.slice(STEERING_PREFIX.length),
        kind: hit.kind,
        fingerprint: hit.fingerprint,
        configFile,
      },
    }
  return {
    file: hit.file,
    field: hit.field,
    message: `contains a ${hit.kind} (fingerprint ${hit.fingerprint})`,
    fix:
      `remove it, and rotate it if it is real; if it is not a secret, list "${hit.fingerprint}" under secrets: allow: in ` +
      configFile,
    say: {key: 'secret', kind: hit.kind, fingerprint: hit.fingerprint, configFile},
  }
}

export const CREDENTIAL_RULE = 'cairn/credential-assignment'

// A key, then = : or =>, then a value. The key starts where no key character precedes it, so the
// scan stays linear; the bounded lengths keep a pathological line cheap.
const ASSIGNMENT = /(?<![\w.-])([\w.-]{2,64})["']?[ \t]*(?:=>|=|:)[ \t]*["']?([^\s"'`,;]{8,200})/g
const CREDENTIAL_KEY =
  /(?:^|_)(?:password|passwd|pwd|passphrase|secret|token|apikey|credentials?|(?:api|private|access|signing|encryption)_key)(?:_|$)/
const PLACEHOLDER = /^[$%<{[*]|\$\{|\{\{|[<>]|^(?:x+|\*+)$/i

/** Words of a key in snake case: dbPassword, DB-PASSWORD and db.password all become db_password. */
const snake = (key: string): string =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[.-]/g, '_')
    .toLowerCase()

function entropy(s: string): number {
  const counts = new Map<string, number>()
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1)
  let bits = 0
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length)
  return bits
}

/** A value that reads as generated rather than typed: long, mixed letters and digits, high entropy. */
export function looksRandom(value: string): boolean {
  if (value.length < 12 || PLACEHOLDER.test(value)) return false
  const digits = value.replace(/\D/g, '').length
  const letters = value.replace(/[^A-Za-z]/g, '').length
  if (digits < 2 || letters < 3) return false
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z\d]/].filter(re => re.test(value)).length
  return entropy(value) >= 3 && (classes >= 3 || value.length >= 20)
}

/** `password=…`, `API_KEY: …` and the like, with a value that looks generated: [start, end) of each value. */
export function credentialAssignments(text: string): [start: number, end: number][] {
  const out: [number, number][] = []
  for (const m of text.matchAll(ASSIGNMENT)) {
    const [whole, key, value] = m
    if (!CREDENTIAL_KEY.test(snake(key)) || !looksRandom(value)) continue
    const end = m.index + whole.length
    out.push([end - value.length, end])
  }
  return out
}

export const AWS_RULE = 'cairn/aws-key'

// secretlint's AWS rule lets AWS's documentation examples through, and finds a secret key only in an assignment
// (`aws_secret_access_key = …`). A card should carry nothing shaped like a key, an example included: this rule
// finds the shapes; scan() keeps another rule's finding of the same value instead of this one's.
const AWS_KEY_ID = /(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g
// A secret access key: 40 base64 characters (30 random bytes, no padding), alone.
const AWS_SECRET = /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g
// How far from an access key ID a secret key without / or + still counts, in characters.
const NEAR_KEY_ID = 200
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffd]/

export interface AwsKeyShape {
  kind: 'key_id' | 'secret_key'
  start: number
  end: number
}

/**
 * AWS access key IDs, and 40-character base64 tokens that read as a secret access key: letters of both cases and a
 * digit, and a / or + (as three in four random keys have), or an access key ID near it. Never a git sha (hex has one
 * case), base64 of text (the token decodes to readable UTF-8), or a path of words (`apps/web/src/Header2/...`).
 */
export function awsKeyShapes(text: string): AwsKeyShape[] {
  const out: AwsKeyShape[] = []
  const ids: number[] = []
  for (const m of text.matchAll(AWS_KEY_ID)) {
    ids.push(m.index)
    out.push({kind: 'key_id', start: m.index, end: m.index + m[0].length})
  }
  // Both in text order: the first ID not too far behind each token only moves forward, so the scan stays linear.
  let first = 0
  for (const m of text.matchAll(AWS_SECRET)) {
    const token = m[0]
    if (!/\d/.test(token) || !/[A-Z]/.test(token) || !/[a-z]/.test(token)) continue
    while (first < ids.length && ids[first] < m.index - NEAR_KEY_ID) first++
    const near = first < ids.length && ids[first] <= m.index + NEAR_KEY_ID
    if ((!near && !/[/+]/.test(token)) || decodesToText(token) || pathOfWords(token)) continue
    out.push({kind: 'secret_key', start: m.index, end: m.index + token.length})
  }
  return out
}

/**
 * Base64 of words, not of random bytes: it decodes to valid UTF-8 with no control character. A character cut at
 * either end (the text was longer) still counts as text.
 */
function decodesToText(token: string): boolean {
  try {
    const bytes = Uint8Array.from(atob(token), c => c.charCodeAt(0))
    let from = 0
    while (from < 3 && (bytes[from] & 0xc0) === 0x80) from++
    const text = new TextDecoder('utf-8', {fatal: true}).decode(bytes.subarray(from), {stream: true})
    return !CONTROL.test(text)
  } catch {
    return false
  }
}

/** Three or more segments, each a word (three lower-case letters in a row) or short (v2, ui), two of them words. */
function pathOfWords(token: string): boolean {
  if (token.includes('+')) return false
  const segments = token.split('/')
  const words = segments.filter(s => /[a-z]{3}/.test(s)).length
  return (
    segments.length >= 3 && words >= 2 && segments.every(s => /[a-z]{3}/.test(s) || (s.length > 0 && s.length <= 3))
  )
}
