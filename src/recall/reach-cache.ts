import {createHash} from 'node:crypto'
import type {RecallIndex} from './format.js'
import {cairnVersion} from '../store/cards/card-cache.js'
import {readJsonIn, usableIn, writeFileIn} from '../store/files/store-files.js'
import {rel, type Store} from '../store/layout.js'

/**
 * Lint's `unreachable` answers (does a card's own title and summary, as a prompt, recall it), kept
 * between runs in <primary store>/.cache/lint-reach.json beside the index (never committed), so a
 * lint of an unchanged library matches no prompt again. The answer depends on the card's prompt and
 * on the whole index (its stats, lexicon, signals and settings), and on the project key its scope
 * gate reads. So the file is trusted only as a whole, when it was written by this cairn, for this
 * project key and for the index now open (RecallIndex.identity, a digest of its header and block
 * table): the index is itself proven fresh against the card files when it opens, so a hand edit,
 * an added or removed card, or a changed config, signals or lexicon file gives a new index and
 * every answer is worked out again. Each answer is also kept with a digest of the prompt it was
 * given. A missing, damaged or foreign file is ignored and written again.
 */
const SCHEMA = 'cairn/lint-reach@1'
const FILE = 'lint-reach.json'
/** Far above a 100,000-card library's answers. */
const MAX_BYTES = 64 * 1024 * 1024

/** [digest of the prompt, whether it recalled the card], by "store\nid". */
type Answers = Record<string, [prompt: string, reached: boolean]>

interface ReachFile {
  schema?: string
  cairn?: string
  index?: string
  projectKey?: string | null
  answers?: Answers
}

export interface ReachCache {
  /** Whether this card's prompt recalled it, when this index answered the same prompt before. */
  get(key: string, prompt: string): boolean | undefined
  set(key: string, prompt: string, reached: boolean): void
  /** Writes the answers when any is new; a read-only checkout keeps none. */
  save(): void
}

const digest = (prompt: string): string => createHash('sha256').update(prompt).digest('base64')

export function openReachCache(primary: Store, index: RecallIndex, projectKey: string | null): ReachCache {
  const file = rel(primary, '.cache', FILE)
  const ok = usableIn(primary.root, file)
  const identity = index.identity()
  const data = (ok ? readJsonIn(primary.root, file, MAX_BYTES) : undefined) as ReachFile | undefined
  const trusted =
    data?.schema === SCHEMA &&
    data.cairn === cairnVersion() &&
    data.index === identity &&
    data.projectKey === projectKey &&
    data.answers !== null &&
    typeof data.answers === 'object'
  const answers: Answers = trusted ? (data.answers as Answers) : {}
  let changed = false
  return {
    get(key, prompt) {
      const entry = Object.hasOwn(answers, key) ? answers[key] : undefined
      if (!Array.isArray(entry) || entry[0] !== digest(prompt) || typeof entry[1] !== 'boolean') return undefined
      return entry[1]
    },
    set(key, prompt, reached) {
      answers[key] = [digest(prompt), reached]
      changed = true
    },
    save() {
      if (!ok || !changed) return
      try {
        const out: ReachFile = {schema: SCHEMA, cairn: cairnVersion(), index: identity, projectKey, answers}
        writeFileIn(primary.root, file, JSON.stringify(out), {durable: false})
      } catch {
        // the answers only save time: a read-only checkout works them out every time
      }
    },
  }
}
