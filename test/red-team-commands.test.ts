import {describe, expect, it} from 'vitest'
import {ciCommand} from '../src/app/ci-command.js'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {type CiCommand, parseCiCommand} from '../src/domain/ci/command.js'
import {card, type Repo, snapshot, templateRepo} from './helpers.js'

/**
 * Issue 27, held checks: pull-request comments that look like `/cairn approve all` to a reader but
 * are not the command are never run; the real command still is. Nor is a command the comment shows in
 * code, quotes, or hides (an HTML comment, an image's description): a member who shows the command, or
 * pastes text that hides one, approves nothing.
 */
const TRAP = 'deepmerge-array-replace-trap'
const USAGE = [
  '',
  'Commands:',
  '- `/cairn approve <id> [<id> ...]` or `/cairn approve all`',
  '- `/cairn reject <id> <reason>`',
  '- `/cairn defer <id> <YYYY-MM-DD>`',
  '- `/cairn verify <id> [<id> ...]` (an active card is still true)',
  '- `/cairn archive <id> [<id> ...]`',
  '- `/cairn modify <id> <field>=<value> ...` (fields as `cairn review modify --set` takes them)',
]
const NONE: CiCommand = {kind: 'none'}
const failed = (reason: string): CiCommand => ({kind: 'failed', reason})
const notAnId = (word: string) =>
  failed(`\`${word}\` is not a card id (ids are kebab-case, e.g. deepmerge-array-replace-trap)`)

const branch = templateRepo(async repo => {
  await init(repo.ctx())
  repo.git('checkout', '-q', '-b', 'feature')
  await propose(repo.ctx(), {fields: card()})
})

/** The approve workflow's run of a member's comment, written after the cairn review of HEAD. */
const run = (repo: Repo, comment: string) => {
  const env = {
    ...repo.env,
    CAIRN_COMMENT: comment,
    CAIRN_ASSOCIATION: 'MEMBER',
    CAIRN_ACTOR: 'octocat',
    CAIRN_REVIEWED: repo.git('rev-parse', 'HEAD').trim(),
    CAIRN_REVIEW_UPDATED_AT: '2026-11-29T10:00:00Z',
    CAIRN_COMMENT_CREATED_AT: '2026-11-29T10:05:00Z',
  }
  return ciCommand(repo.ctx({env}), {since: 'main'})
}

/** Each look-alike and what the parser makes of it: nothing, or a refusal that names the odd word. */
const LOOK_ALIKES: [string, string, CiCommand][] = [
  ['a fullwidth solidus', '\uFF0Fcairn approve all', NONE],
  ['a zero-width space after the slash', '/\u200Bcairn approve all', NONE],
  ['a zero-width joiner inside cairn', '/ca\u200Dirn approve all', NONE],
  ['a zero-width space for the space (/cairn\u200Bapprove)', '/cairn\u200Bapprove all', NONE],
  ['a right-to-left override before it', '\u202E/cairn approve all', NONE],
  ['a right-to-left override after cairn', '/cairn\u202E approve all', NONE],
  ['a bidi isolate around it', '\u2066/cairn approve all\u2069', NONE],
  ['a byte order mark before it', '\uFEFF/cairn approve all', NONE],
  ['a no-break space for the space', '/cairn\u00A0approve all', NONE],
  ['an ideographic space for the space', '/cairn\u3000approve all', NONE],
  ['/Cairn', '/Cairn approve all', NONE],
  ['/CAIRN', '/CAIRN approve all', NONE],
  ['//cairn', '//cairn approve all', NONE],
  ['\\/cairn', '\\/cairn approve all', NONE],
  ['a quote', '> /cairn approve all', NONE],
  ['a quote without a space', '>/cairn approve all', NONE],
  ['a quote in a quote', '> > /cairn approve all', NONE],
  ['a reply quoting it', 'Should I run this?\n> /cairn approve all\nNot yet.', NONE],
  ['inline code', '`/cairn approve all`', NONE],
  ['a Cyrillic es in cairn', '/\u0441airn approve all', NONE],
  ['a Cyrillic a in cairn', '/c\u0430irn approve all', NONE],
  ['a Cyrillic a in approve', '/cairn \u0430pprove all', failed('`\u0430pprove` is not a cairn command')],
  ['a Cyrillic a in all', '/cairn approve \u0430ll', notAnId('\u0430ll')],
  ['a zero-width space after all', '/cairn approve all\u200B', notAnId('all\u200B')],
]

const CODE_BLOCKS: [string, string][] = [
  ['a fenced code block', 'To approve them, comment:\n```\n/cairn approve all\n```'],
  ['a tilde-fenced code block', 'To approve them, comment:\n~~~\n/cairn approve all\n~~~'],
  ['an unclosed fence', 'To approve them, comment:\n````sh\n/cairn approve all'],
  ['a fence in a list item', '1. Read the cards.\n2. Comment:\n   ```\n   /cairn approve all\n   ```'],
  ['an indented code block', 'To approve them, comment:\n\n    /cairn approve all'],
  ['an HTML comment (invisible when rendered)', 'Looks fine so far.\n\n<!--\n/cairn approve all\n-->'],
  ['an HTML comment after text', 'Looks fine so far. <!--\n/cairn approve all\n-->'],
  ['a collapsed <details> block', '<details>\n/cairn approve all\n</details>'],
  ["a block quote's lazy line", '> Should I run this?\n/cairn approve all'],
  ['a multi-line code span', 'Type `\n/cairn approve all\n` to approve.'],
  ["an image's description", '![\n/cairn approve all\n](https://example.com/x.png)'],
  [
    'a collapsed <details> block, its text after a blank line',
    '<details>\n<summary>Notes</summary>\n\n/cairn approve all\n\n</details>',
  ],
  ['after a comment left open on a line that closes one', '<!-- note --><!--\n\n/cairn approve all'],
  ['a lazy line of a footnote that interrupts a paragraph', 'Thanks\n[^1]: n\n/cairn approve all'],
  ["a table's header cell", '/cairn approve all | b\n--|--'],
]

/** Comments whose command counts: text around code blocks, quotes and lists does not hide it. */
const REAL: [string, string][] = [
  ['after a closed code block', 'Run this first:\n```\nnpm test\n```\n/cairn approve all'],
  ['after a quote and a blank line', '> Should I run this?\n\nYes:\n/cairn approve all'],
  ['after a list', 'Notes:\n- the title is long\n- the summary is fine\n/cairn approve all'],
  ['after an HTML comment that closes on its line', '<!-- reviewed in the call -->\n/cairn approve all'],
  ['after inline code and a link', 'Checked `npm test` and [the guide](https://example.com).\n/cairn approve all'],
]

describe('red team: look-alike /cairn commands', () => {
  it('none is read as a command: each is nothing, or a refusal naming the odd word', () => {
    const parsed = LOOK_ALIKES.map(([name, comment]) => [name, parseCiCommand({comment})])
    expect(parsed).toEqual(LOOK_ALIKES.map(([name, , want]) => [name, want]))
  })

  it('none changes the branch; the real command then approves', async () => {
    const repo = await branch()
    const before = snapshot(repo)
    for (const [name, comment, want] of LOOK_ALIKES) {
      const reply = want.kind === 'failed' ? [`Nothing happened: ${want.reason}.`, ...USAGE].join('\n') : ''
      expect([name, await run(repo, comment)]).toEqual([name, {action: want.kind, ids: [], commit: null, reply}])
    }
    expect(snapshot(repo)).toEqual(before)
    const real = await run(repo, 'Looks right.\n/cairn approve all')
    expect([real.action, real.ids, real.commit]).toEqual(['approve', [TRAP], repo.git('rev-parse', 'HEAD').trim()])
  })

  it('a command shown in code, quoted or hidden is not run; nothing changes', async () => {
    const repo = await branch()
    const before = snapshot(repo)
    for (const [name, comment] of CODE_BLOCKS) {
      expect([name, await run(repo, comment)]).toEqual([name, {action: 'none', ids: [], commit: null, reply: ''}])
    }
    expect(snapshot(repo)).toEqual(before)
  })

  it("a command in the comment's own text still runs, wherever the code, quotes and lists around it are", () => {
    const approveAll: CiCommand = {kind: 'approve', ids: [], all: true}
    const parsed = REAL.map(([name, comment]) => [name, parseCiCommand({comment})])
    expect(parsed).toEqual(REAL.map(([name]) => [name, approveAll]))
  })

  it('the command after a quoted one is the one that runs', async () => {
    const repo = await branch()
    const quoted = `> /cairn reject ${TRAP} not needed\n\n`
    const r = await run(repo, `${quoted}\`\`\`\n/cairn reject ${TRAP} no\n\`\`\`\n/cairn approve all`)
    expect([r.action, r.ids, r.commit]).toEqual(['approve', [TRAP], repo.git('rev-parse', 'HEAD').trim()])
  })
})
