import {Args, Errors, Flags, Parser} from '@oclif/core'
import {describe, expect, it} from 'vitest'
import {errorOutcome, runUseCase} from '../../src/app/use-case.js'
import {CairnError, type ErrorCode, EXIT} from '../../src/domain/errors.js'

const throwing = (error: unknown) =>
  runUseCase(() => {
    throw error
  })

/** The error an oclif parse of argv raises (the real parser, not a look-alike). */
async function parseError(argv: string[]): Promise<unknown> {
  const options = {
    flags: {store: Flags.option({options: ['project', 'personal'] as const})()},
    args: {id: Args.string()},
  }
  return Parser.parse(argv, options).then(
    () => expect.unreachable('parse should fail'),
    (e: unknown) => e,
  )
}

describe('runUseCase: one envelope and exit code for every front end', () => {
  it('ok: data, text and warnings, both returned and collected through warn', async () => {
    const outcome = await runUseCase(warn => {
      warn('recovered an interrupted propose')
      return {data: {n: 1}, text: 'one card', warnings: ['1 card file(s) could not be read']}
    })
    const warnings = ['recovered an interrupted propose', '1 card file(s) could not be read']
    expect(outcome).toEqual({envelope: {ok: true, data: {n: 1}, warnings}, exitCode: 0, text: 'one card', warnings})
  })

  it('ok without warnings gives an empty list, and an async use case is awaited', async () => {
    expect(await runUseCase(async () => ({data: null}))).toEqual({
      envelope: {ok: true, data: null, warnings: []},
      exitCode: 0,
      text: undefined,
      warnings: [],
    })
  })

  it('a failure report keeps its data and text and exits with its code', async () => {
    const failure = {code: 'validation' as const, message: 'lint found 2 error(s)'}
    const outcome = await runUseCase(() => ({data: {errors: 2}, text: 'two problems', failure}))
    expect(outcome).toEqual({
      envelope: {ok: false, error: {code: 'validation', message: 'Lint found 2 error(s).', data: {errors: 2}}},
      exitCode: 6,
      text: 'two problems',
      warnings: [],
    })
  })

  const codes = Object.entries(EXIT) as [ErrorCode, number][]
  it.each(codes)('a thrown CairnError %s exits %i with its message and data', async (code, exit) => {
    const outcome = await throwing(new CairnError(code, `failed with ${code}`, {why: code}))
    expect(outcome).toEqual({
      // The wording rules (domain/errors.ts) hold for every refusal; an internal error keeps its stack as it is.
      envelope: {
        ok: false,
        error: {
          code,
          message: code === 'internal' ? 'failed with internal' : `Failed with ${code}.`,
          data: {why: code},
        },
      },
      exitCode: exit,
      warnings: [],
    })
  })

  it('the exit codes are the documented ones', () => {
    expect(Object.fromEntries(codes)).toEqual({
      internal: 1,
      usage: 2,
      not_initialised: 3,
      not_git_repo: 3,
      not_found: 4,
      conflict: 5,
      invalid_transition: 5,
      batch_id_conflict: 5,
      validation: 6,
      rejected: 6,
      git: 7,
    })
  })

  it('a CairnError without data has data null, and warnings collected before the error survive', async () => {
    const outcome = await runUseCase(warn => {
      warn('an interrupted write was rolled back')
      throw new CairnError('not_found', 'no card "x"')
    })
    expect(outcome).toEqual({
      envelope: {ok: false, error: {code: 'not_found', message: 'No card "x".', data: null}},
      exitCode: 4,
      warnings: ['an interrupted write was rolled back'],
    })
  })

  it('any other error is internal (exit 1) with its stack; file system refusals say so', async () => {
    const bug = new TypeError('cannot read properties of undefined')
    const outcome = await throwing(bug)
    expect(outcome.exitCode).toBe(1)
    const message = `internal error: ${bug.stack}`
    expect(outcome.envelope).toEqual({ok: false, error: {code: 'internal', message, data: null}})
    const eacces = Object.assign(new Error("EACCES: permission denied, open '/x'"), {code: 'EACCES'})
    expect((await throwing(eacces)).envelope).toEqual({
      ok: false,
      error: {code: 'internal', message: "file system error: EACCES: permission denied, open '/x'", data: null},
    })
    const thrownString = await throwing('plain string')
    expect([thrownString.exitCode, (thrownString.envelope as {error: {message: string}}).error.message]).toEqual([
      1,
      expect.stringMatching(/^internal error: Error: plain string\n/),
    ])
  })

  it('oclif parse errors are usage errors (exit 2) pointing to --help', async () => {
    const cases: [string[], string][] = [
      [['--nope'], 'Nonexistent flag: --nope.'],
      [['--store', 'team'], 'Expected --store=team to be one of: project, personal.'],
      [['a', 'b'], 'Unexpected argument: b.'],
    ]
    for (const [argv, first] of cases) {
      const outcome = await throwing(await parseError(argv))
      expect(outcome.exitCode).toBe(2)
      const {error} = outcome.envelope as {error: {code: string; message: string; data: unknown}}
      expect([
        error.code,
        error.message.split('\n')[0],
        error.message.endsWith('\nFix: run the command with --help for its usage.'),
        error.data,
      ]).toEqual(['usage', first, true, null])
    }
    const exit2 = await throwing(new Errors.CLIError('give either FILE or the flags, not both', {exit: 2}))
    expect([exit2.exitCode, exit2.envelope]).toEqual([
      2,
      {
        ok: false,
        error: {
          code: 'usage',
          message: 'Give either FILE or the flags, not both.\nFix: run the command with --help for its usage.',
          data: null,
        },
      },
    ])
  })

  it('errorOutcome maps an error raised outside a use case the same way', () => {
    expect(errorOutcome(new CairnError('git', 'git failed'))).toEqual({
      envelope: {ok: false, error: {code: 'git', message: 'Git failed.', data: null}},
      exitCode: 7,
      warnings: [],
    })
  })
})
