import {z} from './vendor/zod.js'
import {validationError} from './errors.js'
import {zodIssues} from './issues.js'
import {checkPinList, type OrgPin, pinIssues} from './org.js'
import {parseYaml, parseYamlDocument} from './yaml.js'

/**
 * Settings in .cairn/config.yaml. A missing file or key means the default documented here. Each
 * setting's error states its rule ("stale_days: must be a whole number of days, at least 1"), and
 * an unknown key suggests the closest known one (domain/issues.ts).
 */
const whole = (min: number, def: number, unit?: string) => {
  const error = `must be a whole number${unit ? ` of ${unit}` : ''}, at least ${min}`
  return z.number({error}).int({error}).min(min, {error}).default(def)
}
/** cairn install gives each client's hook a 5 s timeout: a deadline past 4.5 s would race the client's kill. */
export const MAX_DEADLINE_MS = 4500
const deadline = (def: number) => {
  const error = 'must be a whole number of milliseconds, at least 100'
  // The upper bound first: a huge number is told the real maximum, not the largest integer.
  return z
    .number({error})
    .max(MAX_DEADLINE_MS, {
      error: `must be at most ${MAX_DEADLINE_MS} milliseconds (the clients run cairn's hooks with a 5 s timeout)`,
      abort: true,
    })
    .int({error})
    .min(100, {error})
    .default(def)
}
const flag = (def: boolean) => z.boolean({error: 'must be true or false'}).default(def)
/** A group of settings (recall:, hooks:, ...): a map of its own keys, each with its default. */
const group = <T extends z.core.$ZodLooseShape>(
  shape: T,
  error = `must be a map of settings (${Object.keys(shape).join(', ')})`,
) => {
  const settings = z.strictObject(shape, {error})
  // Every key has a default, so an absent group is {} with each default filled in.
  return settings.prefault({} as z.input<typeof settings>)
}

const PROJECT_KEY = 'must be a project key such as github.com/owner/repo, or null to take it from the "origin" remote'
const FINGERPRINT = "must be a 16-character fingerprint, as a refused card's error shows it"
const HOST = 'must be a host name such as docs.example.com (no scheme, path or port); it covers its subdomains'
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i

export const configSchema = z.strictObject(
  {
    schema: z.literal('cairn/config@1').default('cairn/config@1'),
    project_key: z.string({error: PROJECT_KEY}).min(1, {error: PROJECT_KEY}).nullable().default(null),
    knowledge_language: z.enum(['en', 'zh-CN']).default('en'),
    commit: z.preprocess(
      v => (typeof v === 'boolean' ? {enabled: v} : v),
      group({enabled: flag(true), verify: flag(false)}, 'must be true, false, or a map of settings (enabled, verify)'),
    ),
    core_budget: whole(0, 8000, 'characters'),
    stale_days: whole(1, 180, 'days'),
    recall: group({
      max_cards: whole(1, 4, 'cards'),
      budget_chars: whole(200, 2400, 'characters'),
      catalog_budget: whole(0, 3000, 'characters'),
    }),
    hooks: group({
      enforce_must: flag(false),
      path_cards: z
        .enum(['with_write', 'before_write'], {error: 'must be with_write or before_write'})
        .default('with_write'),
      deadline_ms: deadline(1500),
      session_deadline_ms: deadline(4000),
    }),
    signals: group({
      archive_min_events: whole(1, 5, 'events'),
      archive_min_hours: whole(1, 24, 'hours'),
      review_max_pending: whole(1, 10, 'cards'),
      review_max_age_days: whole(1, 7, 'days'),
      enrich_min_cards: whole(0, 3, 'cards'),
    }),
    archive: group({
      max_candidates_per_batch: whole(1, 8, 'cards'),
      max_recent_paths: whole(1, 20, 'paths'),
      digest_max_sessions: whole(1, 10, 'sessions'),
    }),
    review: group({
      require_decision: flag(false),
      require_fresh: flag(false),
      approvers: z.enum(['writers', 'codeowners'], {error: 'must be writers or codeowners'}).default('writers'),
    }),
    maintain: group({
      verify_days: whole(0, 180, 'days'),
      stale_grace_days: whole(0, 30, 'days'),
      unused_days: whole(0, 90, 'days'),
      enrich_min_injections: whole(0, 10, 'injections'),
    }),
    secrets: group({
      allow: z
        .array(z.string({error: FINGERPRINT}).regex(/^[0-9a-f]{16}$/, {error: FINGERPRINT}), {
          error: `must be a list of fingerprints, e.g. [3f2a9c1e0b7d4a65]`,
        })
        .default([]),
    }),
    content: group({
      allow_hosts: z
        .array(z.string({error: HOST}).regex(HOST_NAME, {error: HOST}), {
          error: 'must be a list of host names, e.g. [docs.pydantic.dev, internal.example.com]',
        })
        .default([]),
    }),
    org: z
      .array(
        z.strictObject(
          {
            name: z.string({error: 'must be text'}),
            url: z.string({error: 'must be text'}),
            ref: z.string({error: 'must be text'}),
            commit: z.string({error: 'must be text'}),
          },
          {error: 'must be a map of name, url, ref and commit'},
        ),
        {error: 'must be a list of org layers (name, url, ref, commit), as "cairn org add" writes them'},
      )
      .default([]),
    board: group({
      budget: whole(1, 100),
      weight_shares: group({1: whole(0, 3), 2: whole(0, 6), 3: whole(0, 12), 4: whole(0, 20), 5: whole(0, 30)}),
      fold_below: whole(1, 3),
    }),
  },
  {error: 'must be a map of settings (key: value lines)'},
)

export type Config = z.output<typeof configSchema>

export function parseConfig(data: unknown, file: string): Config {
  const result = configSchema.safeParse(data ?? {}, {reportInput: true})
  if (!result.success)
    throw validationError(zodIssues(result.error, file, '', configSchema), `Invalid config in ${file}`)
  const pins = result.data.org.flatMap((pin, i) => pinIssues(pin, i, file))
  if (pins.length) throw validationError(pins, `Invalid config in ${file}`)
  checkPinList(result.data.org, file)
  return result.data
}

/**
 * config.yaml's text with its org list set to these pins, every other line and comment kept: what `cairn org add`,
 * `update` and `remove` commit. An empty list removes the key.
 */
export function withOrgPins(text: string, pins: readonly OrgPin[], file: string): string {
  const doc = parseYamlDocument(text, file)
  const list = pins.map(p => ({name: p.name, url: p.url, ref: p.ref, commit: p.commit}))
  // No layer, no key: a project that reads no org store keeps a config.yaml an older cairn reads too.
  if (list.length === 0) doc.delete('org')
  else doc.set('org', doc.createNode(list))
  const out = doc.toString({lineWidth: 0})
  parseConfig(parseYaml(out, file), file)
  return out
}

export const DEFAULT_CONFIG: Config = configSchema.parse({})

/** The config file `cairn init` writes: every setting with its default and what it does. */
export const DEFAULT_CONFIG_YAML = `# cairn settings. A missing key means the default shown here.
schema: cairn/config@1
# Identifies this project for card scope; null derives it from the git remote "origin".
project_key: null
# Language of review output and new card bodies: en | zh-CN.
knowledge_language: en
commit:
  # false writes files without committing them (same as --no-commit on every command).
  enabled: true
  # true runs the repository's commit hooks on cairn commits.
  verify: false
# Characters of load: core card text injected at session start.
core_budget: 8000
# A card not updated for this many days is stale for maintain.
stale_days: 180
recall:
  # At most this many cards per recall; fewer, or none, when unsure.
  max_cards: 4
  # Character budget of the injected light index.
  budget_chars: 2400
  # Characters of the one-line-per-card catalog of recall cards shown at session start (0: none);
  # past it, the catalog lists the categories with their counts.
  catalog_budget: 3000
hooks:
  # true lets a must + high-risk card deny the first write it applies to.
  enforce_must: false
  # When a narrow card's paths match a write: with_write shows the cards with the tool call (the model reads them
  # after the write); before_write denies the first write once with the cards, and allows the retry.
  path_cards: with_write
  # Deadline of the prompt and tool hooks, in milliseconds; a hook fails open past it (at most 4500).
  deadline_ms: 1500
  # Deadline of session start, stop and session end, which the client waits for once a session (at most 4500).
  session_deadline_ms: 4000
signals:
  # Stop hook archive signal: this many context events since the last proposal...
  archive_min_events: 5
  # ...or this many hours since the last archive.
  archive_min_hours: 24
  # Review signal: this many pending cards, or the oldest pending this many days old.
  review_max_pending: 10
  review_max_age_days: 7
  # Enrich signal: this many recall cards with no triggers, aliases or use_when (0 turns it off).
  enrich_min_cards: 3
archive:
  # Caps used by the capture skill.
  max_candidates_per_batch: 8
  max_recent_paths: 20
  digest_max_sessions: 10
review:
  # true fails the pull-request review check ("cairn ci review") while a pending card the pull request
  # adds has no decision (approved, rejected or deferred): the merge is then the approval.
  require_decision: false
  # true fails the review check while the pull request may make an active card stale (a file or symbol it cites
  # deleted, renamed or rewritten), until each listed card is verified, modified or archived.
  require_fresh: false
  # Who a /cairn command or the cairn:approve label is obeyed from: writers (anyone with write access) or codeowners
  # (a writer who owns the card under CODEOWNERS: its scope paths, or its file under .cairn/ for a broad card).
  # Read from the base branch, with CODEOWNERS, so a pull request cannot loosen it for itself.
  approvers: writers
maintain:
  # An active card not confirmed (cairn verify) for this many days is listed by cairn stale (0: never).
  verify_days: 180
  # A card whose every cited file and symbol is gone, and that nobody confirmed for this many days, is planned for
  # archive by maintain; a core card with any broken evidence is demoted to recall.
  stale_grace_days: 30
  # An active recall card that no hook matched (a catalog line is no match) and that nobody read with cairn show for
  # this many days is planned for archive, once this machine's receipts (.local/receipts.jsonl) go back that far and
  # the card is that old; never a core or protected card (0: never).
  unused_days: 90
  # A recall card that hooks matched this many times, with no triggers, aliases or use_when, is suggested for
  # cairn enrich (0: never).
  enrich_min_injections: 10
secrets:
  # Cards with a secret (a provider token, a private key, a password with a generated value) are
  # refused. A false positive is allowed by the fingerprint its error shows, e.g. [3f2a9c1e0b7d4a65].
  allow: []
content:
  # Cards that steer an agent are refused like secrets: text that overrides its instructions or hides from the user,
  # hidden characters, raw HTML, images, long encoded blobs, commands that fetch and run code, and links to hosts
  # outside an allow-list (code hosts and language references). Hosts listed here are allowed too, with their
  # subdomains, e.g. [docs.pydantic.dev]. Anything else is allowed by the fingerprint its error shows, under
  # secrets: allow:.
  allow_hosts: []
board:
  # Attention budget of each board layer (an item's "budget" field overrides it for its child layer).
  budget: 100
  # The scale: the share of its layer's budget each weight (1-5) derives when an item has no
  # explicit share. Each step roughly doubles the attention; three weight-5 items fill most of a layer.
  weight_shares:
    1: 3
    2: 6
    3: 12
    4: 20
    5: 30
  # "cairn board brief" folds items whose weight is below this into one line per layer.
  fold_below: 3
`

export const STORE_GITIGNORE = `# Derived and machine-local files; never committed. No trailing slash, so a link by
# these names is ignored too (cairn never writes through one).
/.cache
/.local
`

/** Cards parse on any checkout: Git for Windows (core.autocrlf=true) would otherwise write CRLF. */
export const STORE_GITATTRIBUTES = `# cairn files are LF on every checkout.
* text eol=lf
`
