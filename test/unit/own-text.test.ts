import {describe, expect, it} from 'vitest'
import {CATALOG_HEAD} from '../../src/domain/catalog.js'
import {HEADER} from '../../src/recall/match/render.js'
import {withoutOwnText} from '../../src/recall/match/own-text.js'

const LIGHT_INDEX = [
  HEADER,
  '- Lockfile drift after rebase (lockfile-drift-after-rebase) [may]',
  '  Run npm ci after a rebase that touched package-lock.json.',
  '  Scope: project',
  '  Why: "npm ci" (derived trigger)',
  '  Full rule: cairn show lockfile-drift-after-rebase --section rule',
].join('\n')

describe("cairn's own text in a prompt (withoutOwnText)", () => {
  it('takes out the light index a client echoed, and keeps what the user wrote around it', () => {
    expect(withoutOwnText(`${LIGHT_INDEX}\nrename the settings page title`)).toBe('\nrename the settings page title')
    expect(withoutOwnText(`please rename it\n${LIGHT_INDEX}\n\nthanks`)).toBe('please rename it\n\n\nthanks')
  })

  it('takes out a block indented as a whole (a quoted or nested echo), at its own indentation only', () => {
    const quoted = LIGHT_INDEX.split('\n')
      .map(l => `    ${l}`)
      .join('\n')
    expect(withoutOwnText(`${quoted}\nfix the build`)).toBe('\nfix the build')
    // An unindented line after an indented block is the user's again.
    expect(withoutOwnText(`    ${HEADER}\n- not cairn's: a list of the user's`)).toBe(
      "\n- not cairn's: a list of the user's",
    )
  })

  it("takes out the catalog, the tool hook's cards, the review reminder and the stop reason", () => {
    const blocks = [
      `${CATALOG_HEAD}\n- [may] flaky-login-test: The login test is flaky`,
      'cairn catalog: 40 recall cards, too many to list, by category (`cairn list --category <name>` lists one; `cairn show <id>` reads a card):\ngeneral (30), ci (8), …and 2 more',
      'cairn: cards for db/migrations/003.sql (read a rule with `cairn show <id> --section rule`):\n- [must] Back up (backup-before-migration): Take a backup.',
      'cairn: 3 proposed card(s) wait for review: run the cairn-review skill (`cairn review --format text`).',
      'cairn: before you finish, one thing is due:\n- archive: 5 prompts; run the cairn-archive skill.\nIf none of it is worth doing now, say so in one line and stop.',
    ]
    for (const b of blocks) expect(withoutOwnText(`${b}\nwhat next`), b.slice(0, 30)).toBe('\nwhat next')
  })

  it('leaves a prompt that only talks about cairn as it is', () => {
    for (const p of [
      'why did cairn: cards that may apply show nothing?',
      'cairn: please explain the catalog',
      'the cairn catalog is long\n- really long',
      'cairn catalog is stale, fix it\n- and the list below it',
    ])
      expect(withoutOwnText(p)).toBe(p)
  })
})
