import {HOOK_TEXT} from '../../domain/messages/hooks.js'
import {speak, type StoreLanguage} from '../../domain/messages/language.js'

/**
 * The session digest the cairn-archive skill reads (seed 000, Phase 0.0): a title, the first user
 * messages, the edited paths and the last assistant message, cut to 5 KB on a character boundary.
 */
export interface DigestInput {
  session: string
  agent: string
  at: string
  userMessages: string[]
  editedPaths: string[]
  lastAssistantMessage: string | null
  /** The store's language, which the digest's own headings are in. */
  language?: StoreLanguage
}

/** What a digest is cut to (renderDigest). */
export const MAX_DIGEST_BYTES = 5 * 1024
const MAX_MESSAGES = 10
const MAX_MESSAGE_CHARS = 400

export function renderDigest(d: DigestInput): string {
  const t = speak(HOOK_TEXT, d.language)
  const messages = d.userMessages.map(m => m.trim()).filter(Boolean)
  const title = clip((messages[0] ?? d.editedPaths[0] ?? t.digestUntitled).split('\n')[0], 100)
  const lines = [`# ${title}`, '', t.digestMeta(d.session, d.agent, d.at), '']
  if (messages.length) {
    lines.push(t.digestMessages, '')
    messages
      .slice(0, MAX_MESSAGES)
      .forEach((m, i) => lines.push(`${i + 1}. ${clip(m.replace(/\s+/g, ' '), MAX_MESSAGE_CHARS)}`))
    lines.push('')
  }
  if (d.editedPaths.length) lines.push(t.digestPaths, '', ...d.editedPaths.map(p => `- ${p}`), '')
  if (d.lastAssistantMessage?.trim()) lines.push(t.digestLast, '', clip(d.lastAssistantMessage.trim(), 1500), '')
  return cutBytes(lines.join('\n'), MAX_DIGEST_BYTES, d.language)
}

function clip(s: string, chars: number): string {
  const cs = [...s]
  return cs.length > chars ? `${cs.slice(0, chars - 1).join('')}…` : s
}

/** At most max bytes of UTF-8, never half a character, ending with a newline. */
export function cutBytes(text: string, max: number, language?: StoreLanguage): string {
  if (Buffer.byteLength(text) <= max) return text
  const note = `\n${speak(HOOK_TEXT, language).digestCut(max)}\n`
  let out = ''
  let bytes = Buffer.byteLength(note)
  for (const ch of text) {
    const n = Buffer.byteLength(ch)
    if (bytes + n > max) break
    out += ch
    bytes += n
  }
  return out + note
}
