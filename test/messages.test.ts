import {describe, expect, it} from 'vitest'
import {propose} from '../src/app/propose.js'
import {parseCard} from '../src/domain/card/format.js'
import {parseStructured} from '../src/domain/structured.js'
import type {LogEntry} from '../src/app/log.js'
import {renderLog} from '../src/cli/render.js'
import {clip, displayWidth} from '../src/cli/width.js'
import {validationFailure} from './unit/expect-error.js'
import {cliInProcess} from './cli-in-process.js'
import {card, cli, initRepo, sandboxEnv, tempDir} from './helpers.js'

/** The reproductions of issue 34's "Messages" that are not a wording rule (test/wording.test.ts holds those). */

describe('a YAML error names the line in the file where the problem starts', () => {
  it('an unclosed quote on line 6 of a card is reported at line 6, not where the parser gave up', async () => {
    const repo = await initRepo()
    await propose(repo.ctx(), {fields: card()})
    const text = repo.read('.cairn/pending/pitfall/deepmerge-array-replace-trap.md')
    const lines = text.split('\n')
    expect(lines[5]).toBe('title: deepMerge replaces arrays')
    lines[5] = 'title: "deepMerge replaces arrays'
    const e = validationFailure(() => parseCard(lines.join('\n'), 'card.md'))
    expect(e.message).toBe(
      'Invalid YAML in card.md:\n' +
        '  - card.md: (yaml): invalid YAML: the quote opened on line 6, column 8 is not closed. ' +
        'Fix: end the value on line 6 with a closing ", or remove the opening one.',
    )
    // A single quote the same way; another error keeps the library's position, offset to the file's line.
    const single = validationFailure(() => parseCard(lines.join('\n').replace('"deepMerge', "'deepMerge"), 'card.md'))
    expect(single.message).toContain(
      "the quote opened on line 6, column 8 is not closed. Fix: end the value on line 6 with a closing ', or",
    )
    const dup = validationFailure(() => parseCard(text.replace('load: recall\n', 'load: recall\nload: core\n'), 'c.md'))
    expect(dup.message).toMatch(/invalid YAML at line 10, column 1: map keys must be unique/)
  })
})

describe('a .json input with a syntax error is invalid JSON, with the line, the column and a JSON fix', () => {
  const refused = (text: string, label = 'x.json') => validationFailure(() => parseStructured(text, label)).message
  it.each([
    [
      '{"slug": "a",\n "type": "pitfall",\n}',
      'line 3, column 1: expected a string in double quotes, found "}"',
      'remove the comma before the }: JSON allows no trailing comma',
    ],
    [
      '["a", "b",]',
      'line 1, column 11: expected a JSON value, found "]"',
      'remove the comma before the ]: JSON allows no trailing comma',
    ],
    [
      "{'slug': 'a'}",
      'line 1, column 2: expected a string in double quotes, found "\'"',
      'write names and text in double quotes: JSON has no single quotes',
    ],
    [
      '{slug: "a"}',
      'line 1, column 2: expected a string in double quotes, found "s"',
      'put the property name in double quotes',
    ],
    [
      '{"slug" "a"}',
      'line 1, column 9: expected ":" after the property name, found "\\""',
      'add a ":" between the property name and its value',
    ],
    [
      '{"a": 1 "b": 2}',
      'line 1, column 9: expected "," or "}" after a property value, found "\\""',
      'add a comma between the two items, or close the object with }',
    ],
    [
      '{"a": "b',
      'line 1, column 9: expected a closing quote, found the end of the input',
      'close the text with a double quote; write a line break inside it as \\n',
    ],
    ['{"a": 1,, "b": 2}', 'line 1, column 9: expected a string in double quotes, found ","', 'remove the extra comma'],
    [
      '{"a": 1} // note',
      'line 1, column 10: expected the end of the input, found "/"',
      'remove the comment: JSON has none',
    ],
    [
      '{"a": yes}',
      'line 1, column 7: expected a JSON value, found "y"',
      'write text in double quotes; the only bare words in JSON are true, false and null',
    ],
  ])('%j', (text, where, fix) => {
    expect(refused(text)).toBe(`Invalid JSON in x.json:\n  - x.json: (json): invalid JSON at ${where}. Fix: ${fix}.`)
  })

  it('stdin that opens as JSON and is not YAML either is reported as JSON; YAML and flow maps still read', () => {
    expect(refused('{"a": 1 "b": 2}', '(stdin)')).toMatch(/^Invalid JSON in \(stdin\):/)
    expect(parseStructured('{a: 1}', '(stdin)').data).toEqual({a: 1})
    expect(parseStructured('a: 1\n', 'x.yaml').data).toEqual({a: 1})
    expect(parseStructured('{"a": [1]}', 'x.json').data).toEqual({a: [1]})
  })

  it('JSON nested far too deep and broken is refused by its depth, never a stack overflow', () => {
    expect(refused(`${'['.repeat(100_000)}x`)).toMatch(/expected at most 64 levels of nesting/)
  })
})

describe('cairn log fits the terminal', () => {
  const entry = (cards: string[], subject: string): LogEntry => ({
    sha: 'a'.repeat(40),
    at: '2026-11-29T10:00:00Z',
    op: 'approve',
    actor: 'tester',
    cards,
    batch: null,
    subject,
    store: 'project',
  })

  it('cuts each line to the width, and names the card ids that fit in 40 columns with a count of the rest', () => {
    const ids = Array.from({length: 30}, (_, i) => `card-number-${i}-of-many`)
    const text = renderLog([entry(ids, `cairn(approve): ${ids.join(', ')}`)], 100)
    const [head, row] = text.split('\n')
    expect(head).toBe('COMMIT   DATE                  OP       ACTOR   CARDS                      SUBJECT')
    expect(row).toBe(
      'aaaaaaa  2026-11-29T10:00:00Z  approve  tester  card-number-0-of-many +29  cairn(approve): card-num…',
    )
    expect(row.length).toBe(100)
    expect(renderLog([entry(['one'], 'short')], 100)).toBe(
      'COMMIT   DATE                  OP       ACTOR   CARDS  SUBJECT\naaaaaaa  2026-11-29T10:00:00Z  approve  tester  one    short',
    )
    expect([clip('中文标题很长', 7), displayWidth(clip('中文标题很长', 7))]).toEqual(['中文标…', 7])
  })

  it('off a terminal, at 100 columns or $COLUMNS; --json keeps every id and the whole subject', async () => {
    const repo = await initRepo()
    const many = Array.from({length: 8}, (_, i) =>
      card({slug: `deepmerge-array-trap-number-${i}`, source_sessions: [`s-${i}`]}),
    )
    await propose(repo.ctx({stdin: JSON.stringify(many)}), {file: '-'})
    const wide = await cliInProcess(['log'], {cwd: repo.dir, env: repo.env})
    const lines = wide.stdout.trimEnd().split('\n')
    expect(Math.max(...lines.map(l => l.length))).toBe(100)
    expect(lines[1]).toMatch(/ deepmerge-array-trap-number-0 \+7 +cairn\(propose\): .*…$/)
    const narrow = await cliInProcess(['log'], {cwd: repo.dir, env: {...repo.env, COLUMNS: '60'}})
    expect(
      Math.max(
        ...narrow.stdout
          .trimEnd()
          .split('\n')
          .map(l => l.length),
      ),
    ).toBe(60)
    const json = await cliInProcess(['log', '--json'], {cwd: repo.dir, env: repo.env})
    const [first] = json.json().data.entries
    expect(first.cards).toHaveLength(8)
    expect(first.subject).toBe('cairn(propose): 8 cards')
  })
})

describe('maintain says how to apply its plan', () => {
  it('maintain and maintain --dry-run end on stderr with the flag that applies, the dry run saying it wrote nothing', async () => {
    const repo = await initRepo()
    const plain = await cliInProcess(['maintain'], {cwd: repo.dir, env: repo.env})
    const dry = await cliInProcess(['maintain', '--dry-run'], {cwd: repo.dir, env: repo.env})
    expect([plain.code, plain.stdout.split('\n')[0], plain.stderr]).toEqual([
      0,
      'Nothing to maintain.',
      'Nothing to apply: "cairn maintain --apply" carries out a plan when there is one.\n',
    ])
    expect([dry.code, dry.stdout, dry.stderr]).toEqual([
      0,
      plain.stdout,
      'Dry run: nothing was written. Nothing to apply: "cairn maintain --apply" carries out a plan when there is one.\n',
    ])
    const json = await cliInProcess(['maintain', '--dry-run', '--json'], {cwd: repo.dir, env: repo.env})
    expect([json.code, json.stderr, json.json().ok]).toEqual([0, '', true])
  })
})

describe('recall outside a git repository', () => {
  it('exits 3 with the message every command gives; the hook there still says nothing and exits 0', async () => {
    const outside = tempDir()
    const env = sandboxEnv(outside)
    const recall = await cliInProcess(['recall', 'fix the flaky login test'], {cwd: outside, env})
    const list = await cliInProcess(['list'], {cwd: outside, env})
    expect([recall.code, recall.stdout, recall.stderr]).toEqual([
      3,
      '',
      `cairn: ${outside} is not inside a git repository. Fix: run "git init" first, then "cairn init".\n`,
    ])
    expect([list.code, list.stderr]).toEqual([recall.code, recall.stderr])
    const payload = {session_id: 's', cwd: outside, hook_event_name: 'UserPromptSubmit', prompt: 'fix the login test'}
    const hook = await cli(['hook', 'user-prompt-submit', '--agent', 'claude'], {
      cwd: outside,
      env,
      input: JSON.stringify(payload),
    })
    expect([hook.code, hook.stdout, hook.stderr]).toEqual([0, '', ''])
  })
})
