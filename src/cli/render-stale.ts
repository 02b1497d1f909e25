import type {StaleResult} from '../app/stale.js'
import type {VerifyResult} from '../app/verify.js'
import {short} from './render.js'

/** `cairn stale`: each card, why it may be stale, and the commands that settle it. */
export function renderStale(r: StaleResult): string {
  const against = r.base ? `the change since ${r.since} (${short(r.base)})` : "each card's last confirmation"
  if (!r.head) return 'Nothing to check: the repository has no commits yet.'
  if (!r.cards.length) return `No card may be stale: ${r.checked} active card(s) checked against ${against}.`
  const lines = [`${r.cards.length} of ${r.checked} active card(s) may be stale, against ${against}:`, '']
  for (const c of r.cards) {
    lines.push(`${c.id}  ${c.title}`)
    for (const why of c.why) lines.push(`  - ${why}`)
    lines.push(`  still true:  ${c.commands[0]}`, `  changed:     ${c.commands[1]} --set <field>=<value>`)
    lines.push(`  gone:        ${c.commands[2]}`, '')
  }
  return lines.join('\n').trimEnd()
}

/** `cairn verify`: what was confirmed, at which commit, what its evidence now says, and what --all-fresh left alone. */
export function renderVerify(r: VerifyResult): string {
  const lines: string[] = []
  const at = r.verified_commit ? ` at ${short(r.verified_commit)}` : ''
  if (r.verified.length)
    lines.push(
      r.verified.length === 1 ? `Confirmed ${r.verified[0]}${at}.` : `Confirmed ${r.verified.length} cards${at}.`,
    )
  else lines.push('Nothing to confirm: every card whose evidence is intact is confirmed since the code last moved.')
  for (const u of r.updated) lines.push(`  ${u.id}: evidence updated (${u.why.join('; ')})`)
  if (r.skipped.length) {
    lines.push(`Left ${r.skipped.length} card(s) that may be stale (cairn stale says why; confirm each by id):`)
    for (const s of r.skipped) lines.push(`  ${s.id}: ${s.why.join('; ')}`)
  }
  if (r.commit) lines.push(`project commit: ${short(r.commit)}`)
  return lines.join('\n')
}
