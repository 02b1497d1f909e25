import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {importOme} from '../src/app/import-ome.js'
import {init} from '../src/app/init.js'
import {lint} from '../src/app/lint.js'
import {modify} from '../src/app/modify.js'
import {propose} from '../src/app/propose.js'
import {repoPathProblem} from '../src/domain/card/schema.js'
import {CairnError, type Issue} from '../src/domain/errors.js'
import {fingerprint, looksRandom} from '../src/domain/secrets.js'
import {card, cli, type Repo, snapshot, tempRepo} from './helpers.js'

// Secrets are assembled at run time from seeded noise, so this file holds no token a scanner would flag.
function noise(n: number, alphabet: string, seed: number): string {
  let x = seed
  let out = ''
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31
    out += alphabet[(x >>> 8) % alphabet.length]
  }
  return out
}
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const ALNUM = `${UPPER}abcdefghijklmnopqrstuvwxyz0123456789`
const PASSWORD = `${noise(10, ALNUM, 7)}#${noise(9, ALNUM, 8)}`
const AWS_SECRET = `${noise(12, ALNUM, 9)}/${noise(14, ALNUM, 10)}+${noise(12, ALNUM, 11)}`

/** Each kind: the text put into a card, and the part of it that must never be echoed. */
const SECRETS = [
  {kind: 'AWS access key ID', value: `AKIA${noise(16, `${UPPER}234567`, 1)}`},
  {kind: 'GitHub token', value: `ghp_${noise(36, ALNUM, 2)}`},
  {
    kind: 'private key',
    value: `MII${noise(61, `${ALNUM}+/`, 3)}\n${noise(64, `${ALNUM}+/`, 4)}\n${noise(40, ALNUM, 5)}`,
  },
  {kind: 'credential assignment with a high-entropy value', value: PASSWORD},
  // AWS's documentation examples, which secretlint lets through, and a bare secret key with no assignment around it.
  {kind: 'value shaped like an AWS access key ID', value: 'AKIAIOSFODNN7' + 'EXAMPLE'},
  {kind: 'value shaped like an AWS secret access key', value: 'wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCYEXAMPLEKEY'},
  {kind: 'value shaped like an AWS secret access key', value: AWS_SECRET},
].map(s => ({...s, text: wrap(s.kind, s.value)}))

function wrap(kind: string, value: string): string {
  if (kind === 'private key') return `-----BEGIN RSA PRIVATE KEY-----\n${value}\n-----END RSA PRIVATE KEY-----`
  return kind.startsWith('credential') ? `password=${value}` : value
}

const PENDING = '.cairn/pending/pitfall/deepmerge-array-replace-trap.md'
const CONTROL_FIX = 'remove it; only tab and line breaks are allowed'
const base = card({
  problem: 'Arrays vanish after a merge.',
  rule: 'Append and dedupe arrays instead of replacing them.',
})

async function initRepo(): Promise<Repo> {
  const repo = tempRepo()
  await init(repo.ctx())
  return repo
}

/** Writes proposal input beside the repo, so it never shows in git status. */
function input(repo: Repo, data: unknown): string {
  const file = path.join(path.dirname(repo.dir), `in-${Math.random().toString(36).slice(2)}.json`)
  fs.writeFileSync(file, JSON.stringify(data))
  return file
}

async function refusal(fn: () => Promise<unknown>): Promise<CairnError & {data: {issues: Issue[]}}> {
  try {
    await fn()
  } catch (error) {
    expect(error).toBeInstanceOf(CairnError)
    expect((error as CairnError).code).toBe('validation')
    expect((error as CairnError).exitCode).toBe(6)
    return error as CairnError & {data: {issues: Issue[]}}
  }
  throw new Error('expected a validation error')
}

/** Fails if any 8-character window of the secret appears in the text. */
function expectNoEcho(text: string, secret: string): void {
  const core = secret.replace(/\s+/g, '')
  for (let i = 0; i + 8 <= core.length; i++)
    expect(text.includes(core.slice(i, i + 8)), `echoes "${core.slice(i, i + 8)}"`).toBe(false)
}

const fingerprintOf = (issue: Issue): string => /fingerprint ([0-9a-f]{16})/.exec(issue.message)![1]

describe('secrets', () => {
  const placements = [
    {field: 'summary', put: (t: string) => ({summary: `Arrays are replaced on merge; the old setup used ${t} there.`})},
    {field: 'recall.triggers[1]', put: (t: string) => ({recall: {triggers: ['deep merge', t]}})},
    {field: 'body', put: (t: string) => ({rule: `Append and dedupe arrays.\n${t}`})},
  ]
  it.each(SECRETS)(
    'refuses a $kind in the summary, a trigger and the rule, naming field and kind, echoing nothing',
    async secret => {
      const repo = await initRepo()
      const before = snapshot(repo)
      for (const place of placements) {
        const err = await refusal(() => propose(repo.ctx(), {file: input(repo, {...base, ...place.put(secret.text)})}))
        const message = expect.stringMatching(new RegExp(`^contains a ${secret.kind} \\(fingerprint [0-9a-f]{16}\\)$`))
        const fix = expect.stringContaining('secrets: allow: in .cairn/config.yaml')
        expect(err.data.issues).toEqual([{file: PENDING, field: place.field, message, fix}])
        expect(err.message).toContain(`${PENDING}: ${place.field}: contains a ${secret.kind}`)
        expectNoEcho(JSON.stringify({code: err.code, message: err.message, data: err.data}), secret.value)
        expect(snapshot(repo)).toEqual(before)
      }
    },
  )

  it('reports a summary copied into the body once for each field, in the CLI envelope too', async () => {
    const repo = await initRepo()
    const before = snapshot(repo)
    const github = SECRETS[1]
    const r = await cli(['propose', '-', '--json'], {
      cwd: repo.dir,
      env: repo.env,
      input: JSON.stringify(card({summary: `Use ${github.text} for the API.`})),
    })
    expect(r.code).toBe(6)
    const {error} = r.json()
    expect(error.code).toBe('validation')
    expect(error.data.issues.map((i: Issue) => [i.field, i.message.replace(/[0-9a-f]{16}/, 'FP')])).toEqual([
      ['summary', 'contains a GitHub token (fingerprint FP)'],
      ['body', 'contains a GitHub token (fingerprint FP)'],
    ])
    expectNoEcho(r.stdout + r.stderr, github.value)
    expect(snapshot(repo)).toEqual(before)
  })

  it("a key secretlint finds keeps secretlint's finding and fingerprint; cairn's AWS shape adds no second one", async () => {
    const repo = await initRepo()
    const id = SECRETS[0].value
    const proposal = {...base, summary: `Old setup: ${id}, aws_secret_access_key = ${AWS_SECRET} and ${AWS_SECRET}.`}
    const err = await refusal(() => propose(repo.ctx(), {file: input(repo, proposal)}))
    expect(
      err.data.issues.filter(i => i.field === 'summary').map(i => i.message.replace(/[0-9a-f]{16}/, 'FP')),
    ).toEqual([
      'contains a AWS access key ID (fingerprint FP)',
      'contains a AWS secret access key (fingerprint FP)',
      'contains a credential assignment with a high-entropy value (fingerprint FP)',
    ])
    // The fingerprint a secrets.allow lists for secretlint's finding is the one it had before cairn's rule.
    expect(fingerprintOf(err.data.issues[0])).toBe(fingerprint('@secretlint/secretlint-rule-aws', id))
  })

  it('lets the word password and low-entropy placeholders through', async () => {
    const repo = await initRepo()
    expect(looksRandom(PASSWORD)).toBe(true)
    const text =
      'Never put the password in a URL. Examples use password=changeme, DB_PASSWORD: ${DB_PASSWORD} or token=<your-token>.'
    const r = await propose(repo.ctx(), {
      file: input(repo, {
        ...base,
        summary: text,
        recall: {triggers: ['password', 'api key']},
        rule: `password: hunter22\n${text}`,
      }),
    })
    expect(r.cards[0].outcome).toBe('created')
    expect(r.commit).toMatch(/^[0-9a-f]{40}$/)
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('lets a secret through once its fingerprint is allowed in config', async () => {
    const repo = await initRepo()
    const aws = SECRETS[0]
    const proposal = {...base, summary: `The fixture key ${aws.text} is a dummy.`}
    const err = await refusal(() => propose(repo.ctx(), {file: input(repo, proposal)}))
    const fp = fingerprintOf(err.data.issues[0])
    const config = repo.read('.cairn/config.yaml')
    expect(config).toContain('\n  allow: []\n')
    repo.write('.cairn/config.yaml', config.replace('\n  allow: []\n', '\n  allow: [AKIA]\n'))
    const bad = await refusal(() => propose(repo.ctx(), {file: input(repo, proposal)}))
    expect(bad.data.issues.map(i => [i.file, i.field])).toEqual([['.cairn/config.yaml', 'secrets.allow[0]']])
    repo.write('.cairn/config.yaml', config.replace('\n  allow: []\n', `\n  allow: [${fp}]\n`))
    const r = await propose(repo.ctx(), {file: input(repo, proposal)})
    expect(r.cards[0].outcome).toBe('created')
    expect(repo.read(PENDING)).toContain(aws.text)
    expect((await lint(repo.ctx())).problems.filter(p => p.rule === 'secret')).toEqual([])
  })

  it('lint reports a secret committed by hand, and modify refuses that card', async () => {
    const repo = await initRepo()
    await propose(repo.ctx(), {file: input(repo, base)})
    const github = SECRETS[1]
    const key = SECRETS[2]
    repo.write(PENDING, repo.read(PENDING).replace('keywords: []', `keywords: [merge, ${github.text}]`))
    const broken = '.cairn/cards/pitfall/broken-card-with-secret.md'
    repo.write(broken, `---\nschema: cairn/card@1\nid: broken-card-with-secret\ncolour: red\n---\n${key.text}\n`)
    repo.git('add', '-A')
    repo.git('commit', '-q', '-m', 'hand edit')
    const r = await lint(repo.ctx())
    const secrets = r.problems.filter(p => p.rule === 'secret')
    expect(secrets.map(p => [p.file, p.field, p.severity, p.message.replace(/[0-9a-f]{16}/, 'FP')])).toEqual([
      [PENDING, 'keywords[1]', 'error', 'contains a GitHub token (fingerprint FP)'],
      [broken, '(content)', 'error', 'contains a private key (fingerprint FP)'],
    ])
    expectNoEcho(JSON.stringify(r), github.value)
    expectNoEcho(JSON.stringify(r), key.value)
    const before = snapshot(repo)
    const err = await refusal(() => modify(repo.ctx(), {id: 'deepmerge-array-replace-trap', sets: ['load=core']}))
    expect(err.data.issues.map(i => [i.file, i.field])).toEqual([[PENDING, 'keywords[1]']])
    expectNoEcho(err.message, github.value)
    expect(snapshot(repo)).toEqual(before)
  })

  it('import leaves out an OME card with a secret, names it, and writes nothing when it is the only one', async () => {
    const repo = await initRepo()
    const before = snapshot(repo)
    const ome = {
      id: 'deploy-token-handling',
      title: 'Deploy tokens',
      summary: 'Rotate deploy tokens.',
      rule: `Export ${SECRETS[3].text} before deploying.`,
    }
    const r = await importOme(repo.ctx(), {path: input(repo, [ome])})
    expect(r.cards).toEqual([])
    expect(r.failed.map(f => f.issues.map(i => [i.field, i.message.replace(/[0-9a-f]{16}/, 'FP')]))).toEqual([
      [['body', 'contains a credential assignment with a high-entropy value (fingerprint FP)']],
    ])
    expect(r.failed[0].issues[0].file).toMatch(/^.+\.json:\d+$/)
    expectNoEcho(JSON.stringify(r), SECRETS[3].value)
    expect(snapshot(repo)).toEqual(before)
  })
})

describe('card text', () => {
  it('refuses NUL and other control characters in any text field, naming the field', async () => {
    const repo = await initRepo()
    const before = snapshot(repo)
    const cases: [Record<string, unknown>, string, string][] = [
      [{summary: 'Arrays\u0000 vanish.'}, 'summary', 'U+0000'],
      [{title: 'deepMerge\u007f replaces arrays'}, 'title', 'U+007F'],
      [{recall: {triggers: ['ok', 'esc \u001b[31m']}}, 'recall.triggers[1]', 'U+001B'],
      [{rule: 'C1 \u0085 control'}, 'rule', 'U+0085'],
      [{session_context: 'bell \u0007'}, 'session_context', 'U+0007'],
    ]
    for (const [over, field, code] of cases) {
      const err = await refusal(() => propose(repo.ctx(), {file: input(repo, {...base, ...over})}))
      const message = expect.stringContaining(`control character ${code}`)
      expect(err.data.issues).toEqual([{file: expect.any(String), field, message, fix: CONTROL_FIX}])
    }
    expect(snapshot(repo)).toEqual(before)
    const ok = await propose(repo.ctx(), {file: input(repo, {...base, rule: 'Tabs\tand\r\nline breaks are fine.'})})
    expect(ok.cards[0].outcome).toBe('created')
  })

  it('lint reports a control character in a card body written by hand', async () => {
    const repo = await initRepo()
    await propose(repo.ctx(), {file: input(repo, base)})
    repo.write(PENDING, `${repo.read(PENDING)}\nbeep \u0007\n`)
    const r = await lint(repo.ctx())
    const message = expect.stringContaining('control character U+0007')
    expect(r.problems).toEqual([
      {file: PENDING, field: 'body', rule: 'schema', severity: 'error', message, fix: CONTROL_FIX},
    ])
  })

  const BAD_PATHS = [
    ['../x', 'has a ".." segment'],
    ['/etc/passwd', 'is an absolute path'],
    ['C:\\x', 'contains a backslash'],
    ['C:/x', 'is an absolute path'],
    ['\\\\server\\share', 'contains a backslash'],
    ['src/{..,a}/x', 'has a ".." segment'],
  ]

  it('refuses ../x, /etc/passwd, C:\\x and their kin in scope.paths, scope.module_path, recent_paths and edit_paths', async () => {
    const repo = await initRepo()
    const before = snapshot(repo)
    for (const [bad, problem] of BAD_PATHS) {
      const cases: [Record<string, unknown>, string][] = [
        [{scope: {paths: ['src/**', bad]}}, 'scope.paths[1]'],
        [{scope: {module_path: bad}}, 'scope.module_path'],
        [{recent_paths: [bad]}, 'recent_paths[0]'],
        [{edit_paths: ['src/a.ts', bad], relevance_scope: 'narrow'}, 'edit_paths[1]'],
      ]
      for (const [over, field] of cases) {
        const err = await refusal(() => propose(repo.ctx(), {file: input(repo, {...base, ...over})}))
        const fix = expect.stringContaining('relative to the repository root')
        expect(err.data.issues, `${bad} in ${field}`).toEqual([
          {file: expect.any(String), field, message: expect.stringContaining(problem), fix},
        ])
      }
    }
    expect(snapshot(repo)).toEqual(before)
  })

  it('refuses such paths from modify and in a card edited by hand', async () => {
    const repo = await initRepo()
    await propose(repo.ctx(), {file: input(repo, base)})
    const before = snapshot(repo)
    const err = await refusal(() =>
      modify(repo.ctx(), {id: 'deepmerge-array-replace-trap', sets: ['scope=narrow', 'paths=src/**,../etc/**']}),
    )
    expect(err.data.issues.map(i => [i.file, i.field])).toEqual([[PENDING, 'scope.paths[1]']])
    expect(snapshot(repo)).toEqual(before)
    repo.write(PENDING, repo.read(PENDING).replace('recent_paths: []', 'recent_paths: [/etc/passwd]'))
    const r = await lint(repo.ctx())
    expect(r.problems.map(p => [p.file, p.field, p.rule])).toEqual([[PENDING, 'provenance.recent_paths[0]', 'schema']])
  })

  it('keeps names that only start with two dots, and relative globs', () => {
    const good = [
      '..cache/x.ts',
      'src/..hidden',
      'a/b..c/d',
      'a/.../b',
      './src/a.ts',
      'apps/web/**/*.tsx',
      '!src/**/*.test.ts',
    ]
    for (const ok of good) expect(repoPathProblem(ok), ok).toBeNull()
    for (const bad of ['..', 'a/..', '!../x', '!/etc/passwd', '@(..|a)/x', 'a/!(..)/b'])
      expect(repoPathProblem(bad), bad).not.toBeNull()
  })
})
