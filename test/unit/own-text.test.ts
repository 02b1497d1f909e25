import {describe, expect, it} from 'vitest'
import {renderCatalog} from '../../src/domain/catalog.js'
import {fitCore, renderEnforced} from '../../src/app/hooks/session-start.js'
import {stopReason} from '../../src/app/hooks/signals.js'
import {denyReason, renderPathCards} from '../../src/app/hooks/tool.js'
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

const CATALOG_LINE = renderCatalog(
  [{id: 'card-0', title: 'Card 0', category: 'general', policy: 'may', when: 'Use when: something'}],
  3000,
)

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
      cited: ['db/migrations'],
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
      renderPathCards([backup], ['db/migrations/003.sql'], () => 'May be stale: db/migrations was deleted'),
      renderEnforced([backup]),
      'cairn: 3 pending cards wait for review: run the cairn-review skill (`cairn review --format text`).',
      'cairn: 1 pending card waits for review: run the cairn-review skill (`cairn review --format text`).',
      // An older cairn's reminder, which a client may still echo.
      'cairn: 3 proposed card(s) wait for review: run the cairn-review skill (`cairn review --format text`).',
      stopReason([{signal: 'archive', why: '5 prompts and edits', action: 'run the cairn-archive skill'}]),
    ]
    expect(blocks[1]).toMatch(/^cairn catalog: 40 recall cards, too many to list/)
    for (const b of blocks) expect(withoutOwnText(`${b}\nwhat next`), b.slice(0, 30)).toBe('\nwhat next')
  })

  it('takes out the core cards, a denied write, the over-budget notice and the board brief, each to the blank line after it', () => {
    const core = fitCore(
      [
        {
          id: 'run-tests-before-push',
          text: '### Run the tests before pushing (run-tests-before-push)\nRun npm test before every git push.\n',
        },
        {
          id: 'backup-before-migration',
          text: '### Back up before a migration (backup-before-migration)\nRun scripts/backup.sh.\nCheck the dump.\n',
        },
      ] as never,
      2000,
    ).text
    expect(core.split('\n').slice(0, 3)).toEqual([
      'cairn core rules (always apply in this project):',
      '',
      '### Run the tests before pushing (run-tests-before-push)',
    ])
    const deny = denyReason(
      {
        id: 'backup-before-migration',
        title: 'Back up before a migration',
        rule: 'Run scripts/backup.sh.\nCheck the dump.',
      } as never,
      ['db/migrations/003.sql'],
    )
    const notice =
      'cairn: the core cards are over budget (3000 > 2000 chars), so a, b did not load. Run `cairn maintain --dry-run`, then `cairn maintain --apply` to demote the least used.'
    const brief =
      'cairn board brief:\nBoard at 2026-11-29T10:00:00Z: event 3, revision 2, never checked.\nRoot layer: 1 of 1 used by 1 active item.\n1. ship-backup · task · weight 1 · share 1\n   back up the migration database'
    // A rule of two paragraphs: the denial runs to its last line, not to the blank line inside the rule.
    const long = denyReason(
      {
        id: 'backup-before-migration',
        title: 'Back up before a migration',
        rule: 'Run scripts/backup.sh.\n\nThen verify the dump.',
      } as never,
      ['db/migrations/003.sql'],
    )
    expect(withoutOwnText(`${long}\n\nwhat next`).trim()).toBe('what next')
    // As Codex shows it: the reason without its last period, then ". Command: …".
    const codexShown = `Command blocked by PreToolUse hook: ${long.replace(/\.$/, '')}. Command: apply_patch`
    expect(withoutOwnText(`${codexShown.slice('Command blocked by PreToolUse hook: '.length)}\nwhat next`).trim()).toBe(
      'what next',
    )
    for (const b of [core, deny, notice, brief])
      expect(withoutOwnText(`${b}\n\nwhat next`).trim(), b.slice(0, 30)).toBe('what next')
    // As session-start sends them: parts joined by a blank line, then the user's prompt.
    expect(withoutOwnText([core, notice, brief, 'add a y export in src/db/y.ts'].join('\n\n')).trim()).toBe(
      'add a y export in src/db/y.ts',
    )
  })

  it("takes out Gemini CLI's <hook_context> echo, its brackets as they are or as entities, and a cut-off one to the end", () => {
    const echoed = `${renderEnforced([])}\n${CATALOG_LINE}`
    expect(withoutOwnText(`<hook_context>${echoed}\n</hook_context>\n\nadd a y export in src/db/y.ts`).trim()).toBe(
      'add a y export in src/db/y.ts',
    )
    expect(withoutOwnText(`&lt;hook_context&gt;${echoed}&lt;/hook_context&gt;\n\nrename it`).trim()).toBe('rename it')
    expect(withoutOwnText(`<hook_context>${echoed}`).trim()).toBe('')
    // Cut off is taken out only at the start, where the client puts it: a user who writes the tag keeps the rest.
    const about = 'Gemini writes <hook_context> before the prompt; add parsing for it in src/agents/gemini.ts'
    expect(withoutOwnText(about)).toBe(about)
    expect(withoutOwnText(`<hook_context>a</hook_context>\n\n<hook_context>${echoed}`)).toBe('')
    // Many opening tags and no closing one: read once through (a regular expression per tag took seconds at 100,000).
    const hostile = `fix the cairn build ${'<hook_context>x'.repeat(100_000)}`
    expect(withoutOwnText(hostile)).toBe(hostile)
    expect(
      withoutOwnText(
        'cairn: cards for src/ui/z.ts (read a rule with `cairn show &lt;id&gt; --section rule`):\n- [may] A (a): b\nok',
      ),
    ).toBe('\nok')
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
