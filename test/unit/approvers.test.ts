import {describe, expect, it} from 'vitest'
import {
  cardOwners,
  type CardScope,
  judge,
  ownersLine,
  ownersNotes,
  type TeamAnswer,
  teamsToAsk,
} from '../../src/domain/ci/approvers.js'
import {ownerText, parseCodeOwners} from '../../src/domain/ci/codeowners.js'

const CODEOWNERS = `* @global-owner1 @global-owner2
*.js @js-owner
/src/payments/ @acme/payments @alice
/src/payments/legacy/
/docs/ docs@example.com
/.cairn/ @acme/knowledge
`
const co = parseCodeOwners(CODEOWNERS, '.github/CODEOWNERS')
const FILES = [
  'README.md',
  'src/payments/charge.ts',
  'src/payments/refund.ts',
  'src/payments/legacy/old.ts',
  'src/ui/button.js',
  'src/ui/button.css',
  'apps/web/src/page.ts',
  'apps/api/src/server.ts',
  'docs/guide.md',
]

const card = (paths: string[], over: Partial<CardScope> = {}): CardScope => ({
  id: 'a-card',
  file: '.cairn/cards/pitfall/a-card.md',
  modulePath: null,
  paths,
  ...over,
})
/** Each claim as its owners and paths, in text. */
const claims = (scope: CardScope, files = FILES, owners = co) =>
  cardOwners(scope, files, owners).claims.map(c => [c.owners.map(ownerText), c.paths])
const NO_TEAMS = new Map<string, TeamAnswer>()

describe('who owns a card under CODEOWNERS', () => {
  it("a narrow card: the owners of the base tree's files its globs match", () => {
    expect(cardOwners(card(['src/payments/*.ts']), FILES, co)).toMatchObject({id: 'a-card', by: 'paths'})
    expect(claims(card(['src/payments/*.ts']))).toEqual([
      [
        ['@acme/payments', '@alice'],
        ['src/payments/charge.ts', 'src/payments/refund.ts'],
      ],
    ])
  })

  it('paths with different owners are separate claims; an unowned path is none', () => {
    expect(claims(card(['src/**']))).toEqual([
      [
        ['@acme/payments', '@alice'],
        ['src/payments/charge.ts', 'src/payments/refund.ts'],
      ],
      [['@js-owner'], ['src/ui/button.js']],
      [['@global-owner1', '@global-owner2'], ['src/ui/button.css']],
    ])
  })

  it('a glob no base file matches is owned as its fixed part: a new file in its folder, or the path it names', () => {
    expect(claims(card(['src/payments/new/**/*.ts']))).toEqual([[['@acme/payments', '@alice'], ['src/payments/new/']]])
    // *.js names a file, so it does not own a new file in src/ui/ whatever its name.
    expect(claims(card(['src/ui/widgets/**']))).toEqual([[['@global-owner1', '@global-owner2'], ['src/ui/widgets/']]])
    expect(claims(card(['src/ui/new.js']))).toEqual([[['@js-owner'], ['src/ui/new.js']]])
    expect(claims(card(['**/*.rb']))).toEqual([[['@global-owner1', '@global-owner2'], ['/']]])
  })

  it('module_path narrows the files, as it does for recall', () => {
    expect(claims(card(['**/*.ts'], {modulePath: 'apps/web'}))).toEqual([
      [['@global-owner1', '@global-owner2'], ['apps/web/src/page.ts']],
    ])
  })

  it("a broad card, or one whose paths no line owns, is owned by its file's owners under .cairn/", () => {
    expect(cardOwners(card([]), FILES, co)).toEqual({
      id: 'a-card',
      by: 'card',
      claims: [{owners: [{kind: 'team', org: 'acme', team: 'knowledge'}], paths: ['.cairn/cards/pitfall/a-card.md']}],
    })
    expect(cardOwners(card(['src/payments/legacy/**']), FILES, co).by).toBe('card')
    // Nobody owns the card's file either: anyone with write access may decide, as GitHub has it.
    const none = parseCodeOwners('/src/ @src\n', 'CODEOWNERS')
    expect(cardOwners(card([]), FILES, none).claims).toEqual([])
    expect(judge(cardOwners(card([]), FILES, none), 'anyone', NO_TEAMS)).toEqual({ok: true, unmet: [], unsure: []})
  })
})

describe('judging the person who decides', () => {
  const payments = cardOwners(card(['src/payments/*.ts']), FILES, co)
  const spanning = cardOwners(card(['src/ui/**']), FILES, co)

  it('an owner by login (any case) is obeyed; someone else is not', () => {
    expect(judge(payments, 'Alice', NO_TEAMS).ok).toBe(true)
    expect(judge(payments, 'bob', NO_TEAMS)).toEqual({ok: false, unmet: payments.claims, unsure: []})
  })

  it('one person must meet every claim', () => {
    expect(judge(spanning, 'js-owner', NO_TEAMS).unmet.map(c => c.paths)).toEqual([['src/ui/button.css']])
    const both = parseCodeOwners('* @g\n*.js @js @g\n', 'CODEOWNERS')
    expect(judge(cardOwners(card(['src/ui/**']), FILES, both), 'g', NO_TEAMS).ok).toBe(true)
  })

  it("a team counts by the API's answer; a team it could not check is named", () => {
    expect(teamsToAsk([payments, spanning], 'bob')).toEqual([{org: 'acme', team: 'payments'}])
    expect(teamsToAsk([payments], 'alice')).toEqual([])
    expect(judge(payments, 'bob', new Map([['@acme/payments', 'member']])).ok).toBe(true)
    expect(judge(payments, 'bob', new Map([['@acme/payments', 'not_member']])).unsure).toEqual([])
    expect(judge(payments, 'bob', new Map([['@acme/payments', 'unknown']]))).toMatchObject({
      ok: false,
      unsure: ['@acme/payments'],
    })
  })

  it('an owner named by email address never matches a login', () => {
    const docs = cardOwners(card(['docs/**']), FILES, co)
    expect(judge(docs, 'docs', NO_TEAMS).ok).toBe(false)
    expect(ownersNotes([{owners: docs, verdict: judge(docs, 'docs', NO_TEAMS)}], co, 'docs')).toEqual([
      'An owner named by email address cannot decide by comment: cairn cannot tell which login it is. ' +
        'Name them by `@login` in CODEOWNERS.',
    ])
  })
})

describe('the reply', () => {
  it('names who may decide on each card in code spans (no @mention pings), a few paths each', () => {
    const many = cardOwners(card(['src/**/*.ts'], {id: 'pay-card'}), [...FILES, 'src/payments/x.ts'], co)
    expect(ownersLine(many, judge(many, 'bob', NO_TEAMS))).toBe(
      '- `pay-card`: one of `@acme/payments`, `@alice` (owning `src/payments/charge.ts`, `src/payments/refund.ts`, ' +
        '`src/payments/x.ts`).',
    )
    const spanning = cardOwners(card(['src/ui/**'], {id: 'ui-card'}), FILES, co)
    expect(ownersLine(spanning, judge(spanning, 'bob', NO_TEAMS))).toBe(
      '- `ui-card`: one person who is one of `@js-owner` (owning `src/ui/button.js`), and one of `@global-owner1`, ' +
        '`@global-owner2` (owning `src/ui/button.css`).',
    )
    const five = cardOwners(card(['src/**'], {id: 'five'}), ['src/1', 'src/2', 'src/3', 'src/4', 'src/5'], co)
    expect(ownersLine(five, judge(five, 'bob', NO_TEAMS))).toBe(
      '- `five`: one of `@global-owner1`, `@global-owner2` (owning `src/1`, `src/2`, `src/3` and 2 more).',
    )
  })

  it('says which teams it could not check and how to let it, and which CODEOWNERS lines are skipped', () => {
    const skipping = parseCodeOwners('/src/ @acme/payments\n!x @y\n', 'CODEOWNERS')
    const owners = cardOwners(card(['src/payments/*.ts'], {id: 'pay'}), FILES, skipping)
    const verdict = judge(owners, 'bob', new Map([['@acme/payments', 'unknown']]))
    expect(ownersLine(owners, verdict)).toBe(
      '- `pay`: one of `@acme/payments` (owning `src/payments/charge.ts`, `src/payments/refund.ts`); ' +
        'cairn could not check `@acme/payments` (see below).',
    )
    expect(ownersNotes([{owners, verdict}], skipping, 'bob')).toEqual([
      "cairn could not tell whether `bob` is in `@acme/payments`: the token it has cannot read that team (a workflow's " +
        "own token cannot read an organisation's teams). Give the workflow a token that can (organisation permission " +
        'Members: read) as the `CAIRN_TEAMS_TOKEN` secret, or name the owners by login in CODEOWNERS.',
      '`CODEOWNERS` has lines GitHub skips, and so does cairn: line 2 (negation (`!`) does not work in CODEOWNERS).',
    ])
  })
})
