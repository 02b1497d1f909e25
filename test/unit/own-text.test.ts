import {describe, expect, it} from 'vitest'
import {renderCatalog} from '../../src/domain/catalog.js'
import {renderEnforced} from '../../src/app/hooks/session-start.js'
import {stopReason} from '../../src/app/hooks/signals.js'
import {renderPathCards} from '../../src/app/hooks/tool.js'
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

  it("takes out the catalog, the tool hook's cards, the enforced rules, the review reminder and the stop reason, as the hooks render them", () => {
    const place = {
      store: 'project' as const,
      path: '.cairn/cards/pitfall/x.md',
      scope: {level: 'project' as const, project_key: null},
    }
    const backup = {
      ...place,
      id: 'backup-before-migration',
      title: 'Back up before a migration',
      summary: 'Take a backup.',
      policy: 'must' as const,
      risk: 'high' as const,
      module_path: null,
      paths: ['db/migrations/**'],
      rule: 'Run scripts/backup.sh.',
    }
    const lines = Array.from({length: 40}, (_, i) => ({
      id: `card-${i}`,
      title: `Card ${i}`,
      category: i < 30 ? 'general' : 'ci',
      policy: 'may' as const,
      when: 'Use when: something',
    }))
    const blocks = [
      renderCatalog(lines.slice(0, 2), 3000),
      renderCatalog(lines, 200), // too many to list: by category
      renderPathCards([backup], ['db/migrations/003.sql']),
      renderEnforced([backup]),
      'cairn: 3 proposed card(s) wait for review: run the cairn-review skill (`cairn review --format text`).',
      stopReason([{signal: 'archive', why: '5 prompts and edits', action: 'run the cairn-archive skill'}]),
    ]
    expect(blocks[1]).toMatch(/^cairn catalog: 40 recall cards, too many to list/)
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
