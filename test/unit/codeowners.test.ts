import {describe, expect, it} from 'vitest'
import {folderOwners, ownersOf, ownerText, parseCodeOwners} from '../../src/domain/ci/codeowners.js'

/** The example file of GitHub's "About code owners", its comments shortened. */
const GITHUB_EXAMPLE = `# This is a comment.
# Each line is a file pattern followed by one or more owners.

# The default owners for everything in the repo, unless a later match takes precedence.
*       @global-owner1 @global-owner2

# Order is important; the last matching pattern takes the most precedence.
*.js    @js-owner #This is an inline comment.

# Email addresses work too.
*.go docs@example.com

# Teams, as @org/team-name.
*.txt @octo-org/octocats

# Any file in the build/logs directory at the root and its subdirectories.
/build/logs/ @doctocat

# docs/* matches docs/getting-started.md, not docs/build-app/troubleshooting.md.
docs/*  docs@example.com

# Any file in an apps directory anywhere in the repository.
apps/ @octocat

# Any file in the /docs directory in the root and its subdirectories.
/docs/ @doctocat

# Any change inside /scripts needs @doctocat or @octocat.
/scripts/ @doctocat @octocat

# Any file in a logs directory such as /build/logs, /scripts/logs and /deeply/nested/logs.
**/logs @octocat

# @octocat owns /apps except /apps/github, whose owners are left empty.
/apps/ @octocat
/apps/github
`

/** The owners of a path, as text; null when no line matches. */
function owners(text: string, path: string): string[] | null {
  const found = ownersOf(parseCodeOwners(text, 'CODEOWNERS'), path)
  return found && found.owners.map(ownerText)
}

describe("CODEOWNERS (GitHub's documented example)", () => {
  const co = parseCodeOwners(GITHUB_EXAMPLE, '.github/CODEOWNERS')
  const of = (path: string) => owners(GITHUB_EXAMPLE, path)

  it('reads every rule, with its line, and skips no line', () => {
    expect(co.skipped).toEqual([])
    expect(co.rules.map(r => [r.line, r.pattern, r.owners.map(ownerText)])).toEqual([
      [5, '*', ['@global-owner1', '@global-owner2']],
      [8, '*.js', ['@js-owner']],
      [11, '*.go', ['docs@example.com']],
      [14, '*.txt', ['@octo-org/octocats']],
      [17, '/build/logs/', ['@doctocat']],
      [20, 'docs/*', ['docs@example.com']],
      [23, 'apps/', ['@octocat']],
      [26, '/docs/', ['@doctocat']],
      [29, '/scripts/', ['@doctocat', '@octocat']],
      [32, '**/logs', ['@octocat']],
      [35, '/apps/', ['@octocat']],
      [36, '/apps/github', []],
    ])
    expect(co.rules.find(r => r.pattern === '*.txt')!.owners).toEqual([
      {kind: 'team', org: 'octo-org', team: 'octocats'},
    ])
  })

  it('the last matching line wins; the default owners own the rest', () => {
    expect(of('README.md')).toEqual(['@global-owner1', '@global-owner2'])
    expect(of('src/index.js')).toEqual(['@js-owner'])
    expect(of('cmd/main.go')).toEqual(['docs@example.com'])
    expect(of('notes/a.txt')).toEqual(['@octo-org/octocats'])
    expect(ownersOf(co, 'src/index.js')!.line).toBe(8)
  })

  it('/build/logs/ owns that folder at the root and everything under it; **/logs any logs folder', () => {
    expect(of('build/logs/today.log')).toEqual(['@octocat']) // **/logs comes later
    expect(owners('/build/logs/ @doctocat\n', 'build/logs/today.log')).toEqual(['@doctocat'])
    expect(owners('/build/logs/ @doctocat\n', 'build/logs/deep/today.log')).toEqual(['@doctocat'])
    expect(owners('/build/logs/ @doctocat\n', 'src/build/logs/today.log')).toBeNull()
    expect(owners('/build/logs/ @doctocat\n', 'build/logs')).toBeNull()
    expect(of('scripts/logs/run.log')).toEqual(['@octocat'])
    expect(of('deeply/nested/logs/x.log')).toEqual(['@octocat'])
  })

  it('docs/* owns the files directly in docs/, not deeper ones', () => {
    const text = 'docs/*  docs@example.com\n'
    expect(owners(text, 'docs/getting-started.md')).toEqual(['docs@example.com'])
    expect(owners(text, 'docs/build-app/troubleshooting.md')).toBeNull()
    expect(owners(text, 'src/docs/getting-started.md')).toBeNull()
  })

  it('apps/ owns an apps folder anywhere; /apps/github with no owners leaves that subfolder unowned', () => {
    expect(owners('apps/ @octocat\n', 'apps/web/page.tsx')).toEqual(['@octocat'])
    expect(owners('apps/ @octocat\n', 'packages/apps/x.ts')).toEqual(['@octocat'])
    expect(of('apps/web/page.tsx')).toEqual(['@octocat'])
    expect(of('apps/github/action.ts')).toEqual([])
    expect(ownersOf(co, 'apps/github/action.ts')!.line).toBe(36)
    expect(of('packages/apps/x.ts')).toEqual(['@octocat'])
  })

  it('/scripts/ has two owners; /docs/ owns everything under docs/', () => {
    expect(of('scripts/deploy.sh')).toEqual(['@doctocat', '@octocat'])
    expect(of('docs/build-app/troubleshooting.md')).toEqual(['@doctocat'])
  })
})

describe('CODEOWNERS patterns', () => {
  // Each pattern, and which paths it matches: gitignore's rules as GitHub applies them.
  const cases: [string, Record<string, boolean>][] = [
    ['foo', {foo: true, 'foo.txt': false, 'foo/bar': true, 'bar/foo': true, 'bar/foo/baz': true}],
    ['/foo', {foo: true, 'foo/bar/baz': true, 'bar/foo': false}],
    ['foo/', {foo: false, 'foo/bar': true, 'bar/foo/baz': true, 'bar/foo': false}],
    ['foo/bar', {'foo/bar': true, 'foo/bar/baz': true, 'foo/bart': false, 'baz/foo/bar': false}],
    ['*', {foo: true, 'foo/bar': true, 'a/b/c': true}],
    ['/*', {foo: true, 'foo/bar': false}],
    ['f*', {foo: true, 'foo/bar': true, 'bar/foo': true, xfoo: false, 'bar/baz': false}],
    ['/*/', {foo: false, 'foo/bar': true, 'bar/foo/baz': true}],
    ['foo/*.txt', {'foo/a.txt': true, 'foo/b/a.txt': false, 'x/foo/a.txt': false}],
    ['foo/*/baz', {'foo/bar/baz': true, 'foo/bar/baz/q': true, 'foo/baz': false}],
    ['f?o', {foo: true, fo: false, fooo: false}],
    ['f\\*o', {'f*o': true, foo: false}],
    ['**/foo/bar', {'foo/bar': true, 'q/foo/bar': true, 'q/foo/bar/b': true, 'foo/baz/bar': false}],
    ['foo/bar/**', {'foo/bar': false, 'foo/bar/baz': true, 'foo/bar/a/b': true, 'q/foo/bar/baz': false}],
    ['foo/**/bar', {'foo/bar': true, 'foo/q/bar': true, 'foo/q/r/bar/baz': true, 'q/foo/bar': false}],
    ['foo/**/', {foo: false, 'foo/bar': true, 'foo/bar/baz': true}],
    ['**', {foo: true, 'a/b': true}],
    ['src/System\\ Application/', {'src/System Application/a.al': true, 'src/System/a.al': false}],
    ['Docs/', {'Docs/a.md': true, 'docs/a.md': false}],
  ]
  it.each(cases)('%s', (pattern, paths) => {
    const co = parseCodeOwners(`${pattern} @o`, 'CODEOWNERS')
    expect(co.skipped).toEqual([])
    const got = Object.fromEntries(Object.keys(paths).map(p => [p, ownersOf(co, p) !== null]))
    expect(got).toEqual(paths)
  })

  it('skips, with why, the lines GitHub skips: negation, ranges, an escaped #, a bad owner; the others still count', () => {
    const co = parseCodeOwners(
      [
        '* @all',
        '!secret.txt @nobody',
        '*.[ch] @c-team',
        '\\#notes @hash',
        '/src/ alice',
        '/lib/ @acme/lib-team bob@example.com',
        '   # an indented comment',
        '/bin/ @Ops-Lead # trailing comment @not-an-owner',
      ].join('\r\n'),
      'CODEOWNERS',
    )
    expect(co.skipped).toEqual([
      {line: 2, reason: 'negation (`!`) does not work in CODEOWNERS'},
      {line: 3, reason: 'character ranges (`[ ]`) do not work in CODEOWNERS'},
      {line: 4, reason: 'an escaped leading `#` does not work in CODEOWNERS'},
      {line: 5, reason: '`alice` is not `@user`, `@org/team` or an email address'},
    ])
    expect(co.rules.map(r => [r.line, r.owners.map(ownerText)])).toEqual([
      [1, ['@all']],
      [6, ['@acme/lib-team', 'bob@example.com']],
      [8, ['@Ops-Lead']],
    ])
    expect(owners('* @all\n/src/ alice\n', 'src/a.ts')).toEqual(['@all'])
  })

  it("a folder's owners are those a new file in it would have, whatever its name", () => {
    const co = parseCodeOwners('* @all\n*.ts @ts\n/src/payments/ @pay\n/lib/* @lib\n', 'CODEOWNERS')
    const folder = (dir: string) => folderOwners(co, dir)?.owners.map(ownerText)
    expect(folder('src/payments')).toEqual(['@pay'])
    expect(folder('src/payments/')).toEqual(['@pay'])
    expect(folder('src/other')).toEqual(['@all'])
    expect(folder('lib')).toEqual(['@lib'])
    expect(folder('')).toEqual(['@all'])
    expect(folderOwners(parseCodeOwners('/src/ @s\n', 'CODEOWNERS'), 'docs')).toBeNull()
  })
})
