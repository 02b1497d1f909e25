import fs from 'node:fs'
import path from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {propose} from '../src/app/propose.js'
import {cliInProcess, oclifConfig} from './cli-in-process.js'
import {card, initRepo, type Repo, snapshot, tempDir, tempRepo} from './helpers.js'

/**
 * The wording rules of src/domain/errors.ts (issue 34), held for every command's help and for the refusals of a
 * table of bad inputs: one style of capitals and periods, a fix on every refusal, no nested parentheses.
 */

/** A message may open with a capital, or with a name written as it is typed: a quoted value, a --flag, a path. */
const OPENS = /^([A-Z]|["'`<$]|--?[a-z]|[./~]|[\w-]*\/)/
const ENDS = /[.?!]$/

/** The deepest parenthesis of a text. */
function parenDepth(text: string): number {
  let depth = 0
  let deepest = 0
  for (const c of text) {
    if (c === '(') deepest = Math.max(deepest, ++depth)
    else if (c === ')') depth = Math.max(0, depth - 1)
  }
  return deepest
}

/** What breaks the rules in one message; a refusal also needs its fix. */
function problems(message: string, refusal: boolean): string[] {
  const out: string[] = []
  const lines = message.split('\n').filter(l => l.trim())
  if (!lines.length) return ['empty']
  if (!OPENS.test(lines[0])) out.push(`opens without a capital: ${lines[0].slice(0, 40)}`)
  if (!ENDS.test(lines.at(-1)!.trim())) out.push(`does not end a sentence: ...${lines.at(-1)!.slice(-40)}`)
  for (const line of lines.slice(0, -1))
    if (!/[.?!:]$/.test(line.trim())) out.push(`a line ends mid-sentence: ...${line.slice(-40)}`)
  // A sentence after a period starts with a capital too ("e.g." is no sentence end).
  const lower = /(?<!\be\.g|\bi\.e)[.?!] +([a-z])/.exec(message.replace(/"[^"\n]*"/g, '""'))
  if (lower) out.push(`a sentence starts in lowercase: ${lower[0]}`)
  if (refusal && !/(^|[.?!:] )Fix: \S/m.test(message)) out.push('no "Fix: " sentence')
  if (parenDepth(message) > 1) out.push('nested parentheses')
  return out
}

describe('the wording checker', () => {
  it('catches each broken rule, and passes a message that keeps them', () => {
    expect(problems('No card with id "x". Fix: give an id as "cairn list" shows it.', true)).toEqual([])
    expect(problems('Invalid YAML in x.md:\n  - x.md: (yaml): bad. Fix: mend it.', true)).toEqual([])
    expect(problems('no card with id "x"', true)).toEqual([
      'opens without a capital: no card with id "x"',
      'does not end a sentence: ...no card with id "x"',
      'no "Fix: " sentence',
    ])
    expect(problems('Bad. fix: mend it (fix: correct it (quote)).', false)).toEqual([
      'a sentence starts in lowercase: . f',
      'nested parentheses',
    ])
  })
})

describe("every command's --help follows the rules", () => {
  it('summary, description, flags and arguments: sentences with a capital and a period, no nested parentheses', async () => {
    const config = await oclifConfig()
    const own = config.commands.filter(c => c.pluginName === config.pjson.name)
    expect(own.length).toBeGreaterThan(30)
    const broken: string[] = []
    const check = (where: string, text: string | undefined) => {
      if (!text) return
      // A description is paragraphs of lines; each paragraph (or list line) ends a sentence.
      const lines = text.split('\n')
      const ends = lines.filter((l, i) => l.trim() && !lines[i + 1]?.trim())
      const texts = [text.trim(), ...ends.map(l => l.trim())]
      if (!OPENS.test(text.trim())) broken.push(`${where}: opens without a capital`)
      for (const t of texts) if (!/[.?!:]$/.test(t)) broken.push(`${where}: ends mid-sentence: ...${t.slice(-40)}`)
      if (parenDepth(text) > 1) broken.push(`${where}: nested parentheses`)
    }
    for (const c of own) {
      check(`${c.id} summary`, c.summary)
      check(`${c.id} description`, c.description)
      for (const [name, flag] of Object.entries(c.flags)) check(`${c.id} --${name}`, flag.description)
      for (const [name, arg] of Object.entries(c.args)) check(`${c.id} <${name}>`, arg.description)
    }
    expect(broken).toEqual([])
    // And --help itself runs for each, exit 0, showing that summary.
    const squash = (s: string) => s.replace(/\s+/g, ' ')
    const cwd = tempDir()
    for (const c of own) {
      const r = await cliInProcess([...c.id.split(':'), '--help'], {cwd})
      expect([c.id, r.code, r.stderr]).toEqual([c.id, 0, ''])
      if (c.summary) expect(squash(r.stdout), c.id).toContain(squash(c.summary))
    }
  })
})

interface Case {
  name: string
  args: string[]
  code: number
  input?: string
  /** Where it runs: the store (default), a directory outside any repository, or a repository without a store. */
  where?: 'store' | 'outside' | 'uninitialised' | 'bad-config'
  /** Text the message must hold, beyond the rules (the reproductions). */
  says?: string
}

const ID = 'deepmerge-array-replace-trap'
const LONG_SLUG = 'lockfile-drift-after-a-rebase-in-ci-pipeline'
const fields = (over: Record<string, unknown>) => JSON.stringify(card(over))

const CASES: Case[] = [
  {
    name: 'a slug with a filler word and too many words',
    args: [
      'propose',
      '--type',
      'pitfall',
      '--slug',
      LONG_SLUG,
      '--title',
      'Lockfile drift',
      '--summary',
      'Regenerate.',
    ],
    code: 6,
    says: 'Fix: try "lockfile-drift-after-rebase".',
  },
  {
    name: 'a slug another proposal holds',
    args: ['propose', '-'],
    input: fields({source_sessions: ['other-session'], title: 'deepMerge replaces hook arrays'}),
    code: 5,
    says: 'Fix: propose it as "deepmerge-array-replace-trap-hook".',
  },
  {name: 'a path-traversal slug', args: ['propose', '-'], input: fields({slug: '../../etc/passwd'}), code: 6},
  {name: 'a path-traversal id', args: ['show', '../../etc/passwd'], code: 6},
  {name: 'a path-traversal id to promote', args: ['org', 'promote', '../../etc/passwd'], code: 6},
  {
    name: 'a promote with no org layer',
    args: ['org', 'promote', ID],
    code: 4,
    says: 'Fix: subscribe with "cairn org add <url>", then promote again.',
  },
  {
    name: 'an unknown field',
    args: ['propose', '-'],
    input: JSON.stringify({...card(), title: undefined, titel: 'x'}),
    code: 6,
    says: 'titel: unknown field. Fix: rename "titel" to "title", or remove it.',
  },
  {
    name: 'an invalid value',
    args: ['propose', '-'],
    input: fields({load: 'sometimes'}),
    code: 6,
    says: 'load: "sometimes" is not one of core, recall. Fix: set load to core or recall.',
  },
  {
    name: 'malformed YAML: an unclosed quote',
    args: ['propose', 'unclosed.md'],
    code: 6,
    says: 'the quote opened on line 4, column 8 is not closed',
  },
  {name: 'malformed YAML: a bad flow list', args: ['propose', 'bad.yaml'], code: 6},
  {
    name: 'invalid JSON',
    args: ['propose', 'trailing.json'],
    code: 6,
    says: 'Invalid JSON in trailing.json:',
  },
  {name: 'a missing argument', args: ['show'], code: 2, says: 'Missing the card id. Usage: cairn show <id>.'},
  {name: 'missing arguments of a topic command', args: ['board', 'annotate'], code: 2},
  {name: 'a missing required flag', args: ['review', 'reject', ID], code: 2},
  {name: 'a missing query', args: ['recall'], code: 2},
  {name: 'an unknown flag', args: ['list', '--bogus'], code: 2},
  {name: 'a mistyped flag', args: ['list', '--statu', 'active'], code: 2, says: 'Did you mean "--status"?'},
  {name: 'an unknown command', args: ['reviw'], code: 2},
  {name: 'an unknown command far from any', args: ['xyzzy'], code: 2},
  {
    name: 'a mistyped subcommand',
    args: ['review', 'aprove', 'foo'],
    code: 2,
    says: '"aprove" is not a command of cairn review. Did you mean "approve"?',
  },
  {name: 'an unknown top-level flag', args: ['-x'], code: 2},
  {name: 'a bad --status', args: ['list', '--status', 'bogus'], code: 2},
  {name: 'a flag without its value', args: ['log', '--limit'], code: 2},
  {name: 'a number that is no number', args: ['log', '--limit', 'abc'], code: 2},
  {name: 'a number below its minimum', args: ['log', '--limit', '0'], code: 2},
  {name: 'flags that exclude each other', args: ['maintain', '--apply', '--dry-run'], code: 2},
  {name: 'an unexpected argument', args: ['show', ID, 'extra'], code: 2},
  {name: 'a file not found', args: ['propose', 'nope.json'], code: 4},
  {name: 'a card not found', args: ['show', 'no-such-card-anywhere-here'], code: 4},
  {name: 'an unknown git ref', args: ['ci', 'review', '--since', 'no-such-ref'], code: 4},
  {name: 'not a git repository', args: ['list'], where: 'outside', code: 3},
  {name: 'recall outside a git repository', args: ['recall', 'fix the login test'], where: 'outside', code: 3},
  {name: 'not initialised', args: ['propose', '-'], input: fields({}), where: 'uninitialised', code: 3},
  {
    name: 'an unknown config key',
    args: ['maintain', '--dry-run'],
    where: 'bad-config',
    code: 6,
    says: 'Fix: rename "stale_day" to "stale_days", or remove it.',
  },
  {name: 'a date that is no date', args: ['review', 'defer', ID, '--until', 'notadate'], code: 2},
  {name: 'a date already past', args: ['review', 'defer', ID, '--until', '2020-01-01'], code: 6},
  {name: 'a field modify does not change', args: ['review', 'modify', ID, '--set', 'colour=blue'], code: 2},
  {name: 'a --set that is not field=value', args: ['review', 'modify', ID, '--set', 'load'], code: 2},
  {name: 'approve with nothing to approve', args: ['review', 'approve'], code: 2},
  {name: 'archive with nothing to archive', args: ['archive'], code: 2},
  {name: 'confirm with nothing to confirm', args: ['verify'], code: 2},
  {name: 'restore of something that is neither id nor archive', args: ['restore', 'Bad_Target'], code: 6},
  {name: 'a --since that is no date', args: ['stats', '--since', 'notadate'], code: 2},
  {name: 'an unknown agent', args: ['install', '--agent', 'copilot'], code: 2},
  {name: 'an export file cairn does not write', args: ['export', 'agents-md', '--file', 'README.md'], code: 2},
  {name: 'a board --now that is no time', args: ['board', 'state', '--now', 'yesterday'], code: 2},
  {name: 'lint of a broken card', args: ['lint', 'broken.md'], code: 6},
  {name: 'a search without a pattern', args: ['search'], code: 2},
  {name: 'an empty search pattern', args: ['search', ''], code: 2, says: 'The search pattern is empty'},
  {
    name: 'a pattern ripgrep refuses',
    args: ['search', 'a(b'],
    code: 2,
    says: 'is not one ripgrep accepts: unclosed group.',
  },
  {name: 'a search pattern over two lines', args: ['search', 'a\nb'], code: 2, says: 'holds a line break'},
  {name: 'a bad search --state', args: ['search', 'x', '--state', 'active,bogus'], code: 2},
  {name: 'a bad search --type', args: ['search', 'x', '--type', 'note'], code: 2},
  {
    name: 'an org layer name that is no slug',
    args: ['org', 'add', '/tmp/no-such-cairn-org.git', '--name', 'Bad_Name'],
    code: 2,
    says: '--name must be a kebab-case name of lowercase letters, digits and single hyphens.',
  },
  {
    name: 'an org --ref that is no branch name',
    args: ['org', 'add', '/tmp/no-such-cairn-org.git', '--ref', 'a..b'],
    code: 2,
  },
  {name: 'an org URL whose transport runs a command', args: ['org', 'add', 'ext::sh'], code: 2},
  {
    name: 'an org URL that is no repository',
    args: ['org', 'add', '/tmp/no-such-cairn-org.git'],
    code: 7,
    says: "'/tmp/no-such-cairn-org.git' does not appear to be a git repository.",
  },
  {
    name: 'an org layer the project does not have',
    args: ['org', 'remove', 'nope'],
    code: 4,
    says: 'No org layer named "nope". Fix: subscribe first with "cairn org add <url>".',
  },
  {name: 'an org update of a layer the project does not have', args: ['org', 'update', 'nope'], code: 4},
  {name: 'an org update with no layer', args: ['org', 'update'], code: 4},
  {name: 'org layers outside a git repository', args: ['org', 'list'], where: 'outside', code: 3},
]

describe('the refusals of a table of bad inputs follow the rules', () => {
  let repo: Repo
  let outside: string
  let uninitialised: Repo
  let badConfig: Repo
  beforeAll(async () => {
    repo = await initRepo()
    await propose(repo.ctx(), {fields: card()})
    repo.write('unclosed.md', '---\nslug: deepmerge-array-replace-trap\ntype: pitfall\ntitle: "unterminated\n---\n')
    repo.write('bad.yaml', 'slug: deepmerge-array-replace-trap\ntype: [pitfall\ntitle: x\n')
    repo.write('trailing.json', `${fields({}).slice(0, -1)},\n}\n`)
    repo.write('broken.md', '---\nschema: cairn/card@4\nid: broken-card-file-here\ntitle: "oops\n---\n')
    outside = tempDir()
    uninitialised = tempRepo()
    badConfig = await initRepo()
    fs.appendFileSync(path.join(badConfig.dir, '.cairn/config.yaml'), 'stale_day: 30\n')
  })

  const cwdOf = (c: Case) =>
    c.where === 'outside'
      ? outside
      : c.where === 'uninitialised'
        ? uninitialised.dir
        : c.where === 'bad-config'
          ? badConfig.dir
          : repo.dir

  it(`${CASES.length} bad inputs: the documented exit code, nothing on stdout but lint's report, and a message that keeps the rules`, async () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30)
    const before = snapshot(repo)
    const seen: {name: string; code: number; problems: string[]; says?: boolean}[] = []
    const want: typeof seen = []
    for (const c of CASES) {
      const cwd = cwdOf(c)
      const r = await cliInProcess(c.args, {cwd, input: c.input})
      const message = r.stderr.replace(/^cairn: /, '').replace(/\n$/, '')
      seen.push({
        name: c.name,
        code: r.code,
        problems: [
          ...(r.stderr.startsWith('cairn: ') ? [] : [`stderr is not a refusal: ${r.stderr.slice(0, 80)}`]),
          ...(c.args[0] === 'lint' || r.stdout === '' ? [] : ['stdout is not empty']),
          ...problems(message, true),
        ],
        ...(c.says ? {says: message.includes(c.says)} : {}),
      })
      want.push({name: c.name, code: c.code, problems: [], ...(c.says ? {says: true} : {})})
      // --json carries the same message in the envelope, and nothing on stderr.
      const json = await cliInProcess([...c.args, '--json'], {cwd, input: c.input})
      if (json.stdout.startsWith('{"ok":false')) expect(json.json().error.message, c.name).toBe(message)
    }
    expect(seen).toEqual(want)
    expect(snapshot(repo)).toEqual(before)
  })
})
