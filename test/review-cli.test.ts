import {describe, expect, it} from 'vitest'
import {init} from '../src/app/init.js'
import {propose} from '../src/app/propose.js'
import {cliInProcess} from './cli-in-process.js'
import {card, cli, templateRepo} from './helpers.js'

/** Off a terminal (here: pipes), and with --format or --json, review prints and never asks. */

const two = templateRepo(async repo => {
  await init(repo.ctx())
  await propose(repo.ctx(), {fields: card()})
  await propose(repo.ctx(), {
    fields: card({
      slug: 'quote-shell-variables-always',
      title: 'Quote shell variables',
      summary: 'Unquoted variables split on spaces.',
    }),
  })
})

const ACTIONS =
  'Approve with "cairn review approve <id>" or "cairn review approve --all"; reject with ' +
  '"cairn review reject <id> --reason <text>"; change fields with "cairn review modify <id> --set <field>=<value>".\n'

describe('cairn review off a terminal', () => {
  it('prints the review and asks nothing, even with answers waiting on stdin; no question line in it', async () => {
    const repo = await two()
    const head = repo.git('rev-parse', 'HEAD').trim()
    for (const args of [['review'], ['review', 'list'], ['review', '--format', 'text']]) {
      const r = await cli(args, {cwd: repo.dir, env: repo.env, input: 'a\na\nq\n'})
      expect([r.code, r.stderr]).toEqual([0, ''])
      expect(
        r.stdout.startsWith(
          'Card Review — 2 pending cards\n\nC1 [type=pitfall] [layer=team] [load=recall] ' +
            '[relevance_scope=broad] slug=deepmerge-array-replace-trap\n',
        ),
      ).toBe(true)
      expect(
        r.stdout.endsWith(`pending_path: .cairn/pending/pitfall/quote-shell-variables-always.md\n\n${ACTIONS}`),
      ).toBe(true)
      expect(r.stdout).not.toMatch(/Confirm|\?/)
    }
    const md = await cli(['review', '--format', 'markdown'], {cwd: repo.dir, env: repo.env})
    expect(md.stdout.split('\n').slice(0, 3)).toEqual([
      '# Card Review — 2 pending cards',
      '',
      '## C1 [type=pitfall] [layer=team] [load=recall] [relevance_scope=broad] slug=deepmerge-array-replace-trap',
    ])
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(head)
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('one JSON mode: --format json prints the envelope --json prints', async () => {
    const repo = await two()
    const json = await cliInProcess(['review', '--json'], {cwd: repo.dir, env: repo.env})
    const format = await cliInProcess(['review', 'list', '--format', 'json'], {cwd: repo.dir, env: repo.env})
    const both = await cliInProcess(['review', '--format=json', '--json'], {cwd: repo.dir, env: repo.env})
    expect([json.code, format.code, both.code]).toEqual([0, 0, 0])
    expect(format.stdout).toBe(json.stdout)
    expect(both.stdout).toBe(json.stdout)
    const envelope = json.json()
    expect([envelope.ok, envelope.warnings, envelope.data.language]).toEqual([true, [], 'en'])
    expect(envelope.data.entries.map((e: {id: string}) => e.id)).toEqual([
      'deepmerge-array-replace-trap',
      'quote-shell-variables-always',
    ])
    expect(envelope.data.text.endsWith(ACTIONS.trim())).toBe(true)
  })

  it('--json with --format text or markdown is a usage error, not a silent choice of one', async () => {
    const repo = await two()
    for (const format of ['markdown', 'text']) {
      const r = await cliInProcess(['review', '--json', '--format', format], {cwd: repo.dir, env: repo.env})
      expect([r.code, r.stderr, r.json()]).toEqual([
        2,
        '',
        {
          ok: false,
          error: {
            code: 'usage',
            data: null,
            message: `--json prints the JSON envelope and --format ${format} prints ${format}. Fix: give one of them.`,
          },
        },
      ])
    }
    const help = await cliInProcess(['review', '--help'], {cwd: repo.dir, env: repo.env})
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'json is the same as --json (the standard envelope); --json with text or ' + 'markdown is a usage error.',
    )
  })

  it('a pending card with an unclosed quote: review and review list --since exit 0 and list the others', async () => {
    const repo = await two()
    const base = repo.git('rev-parse', 'HEAD~2').trim()
    const broken = '.cairn/pending/pitfall/quote-shell-variables-always.md'
    repo.write(broken, repo.read(broken).replace('title: Quote shell variables', 'title: "Quote shell variables'))
    repo.git('commit', '-q', '-am', 'a hand edit that breaks the card')
    for (const args of [['review'], ['review', 'list', '--since', base]]) {
      const r = await cli(args, {cwd: repo.dir, env: repo.env})
      expect([r.code, r.stderr]).toEqual([0, ''])
      expect(r.stdout).toContain(`cannot be read, so the review leaves it out;`)
      expect(r.stdout).toMatch(new RegExp(`\\n- ${broken.replace(/\./g, '\\.')}: .+ Fix: .+\\n`))
      expect(r.stdout).toContain('slug=deepmerge-array-replace-trap\n')
    }
    const json = await cliInProcess(['review', '--json'], {cwd: repo.dir, env: repo.env})
    const envelope = json.json()
    expect([json.code, envelope.ok, envelope.data.entries.map((e: {id: string}) => e.id)]).toEqual([
      0,
      true,
      ['deepmerge-array-replace-trap'],
    ])
    expect(envelope.data.unreadable.map((i: {file: string}) => i.file)).toEqual([broken])
    expect(envelope.warnings).toEqual([expect.stringMatching(new RegExp(`^${broken.replace(/\./g, '\\.')}: .+ Fix: `))])
  })
})
