import {describe, expect, it} from 'vitest'
import {keptPackage, parsePackageSpec} from '../../src/domain/ci/package-spec.js'
import {renderWorkflow} from '../../src/domain/ci/workflows.js'

const RUNNING = {name: 'cairn-memory', version: '0.1.0'}
const SHA = 'a'.repeat(39) + 'b'
const parse = (text: string) => parsePackageSpec(text, RUNNING)
const WORKFLOW =
  '# cairn:workflow review (written by cairn ci install; edit the pin with it)\nenv:\n  CAIRN_PACKAGE: "{{cairn_package}}"\n'

describe('parsePackageSpec: what --package takes', () => {
  it.each([
    ['cairn-memory@0.2.0', {kind: 'registry', text: 'cairn-memory@0.2.0', name: 'cairn-memory', version: '0.2.0'}],
    ['0.2.0', {kind: 'registry', text: 'cairn-memory@0.2.0', name: 'cairn-memory', version: '0.2.0'}],
    [
      ' 1.0.0-rc.1+build.5 ',
      {kind: 'registry', text: 'cairn-memory@1.0.0-rc.1+build.5', name: 'cairn-memory', version: '1.0.0-rc.1+build.5'},
    ],
    [
      '@acme/cairn-memory@1.2.3',
      {kind: 'registry', text: '@acme/cairn-memory@1.2.3', name: '@acme/cairn-memory', version: '1.2.3'},
    ],
    [
      'https://github.com/acme/cairn/releases/download/v0.1.0/cairn-memory-0.1.0.tgz',
      {kind: 'tarball', text: 'https://github.com/acme/cairn/releases/download/v0.1.0/cairn-memory-0.1.0.tgz'},
    ],
    ['https://example.com/x.tar.gz?sig=abc%2F1', {kind: 'tarball', text: 'https://example.com/x.tar.gz?sig=abc%2F1'}],
    [`github:acme/cairn#${SHA}`, {kind: 'git', text: `github:acme/cairn#${SHA}`, ref: SHA, commit: true}],
    ['github:acme/cairn#v0.1.0', {kind: 'git', text: 'github:acme/cairn#v0.1.0', ref: 'v0.1.0', commit: false}],
    [
      `git+https://gitlab.example.com/acme/cairn.git#${SHA}`,
      {kind: 'git', text: `git+https://gitlab.example.com/acme/cairn.git#${SHA}`, ref: SHA, commit: true},
    ],
    [
      'git+ssh://git@github.com/acme/cairn.git#release/0.1',
      {kind: 'git', text: 'git+ssh://git@github.com/acme/cairn.git#release/0.1', ref: 'release/0.1', commit: false},
    ],
  ])('takes %j', (text, spec) => {
    expect(parse(text)).toEqual({ok: true, spec})
  })

  const floats = 'so the workflows would install whatever it points to on the day they run'
  /** A range or dist-tag: refused with the same reason and fix whatever its spelling. */
  const floating = (spec: string): [string, string, string] => [
    spec,
    `The package "${spec}" is a range or a dist-tag, ${floats}`,
    'pin an exact version, such as --package cairn-memory@0.1.0',
  ]
  /** A path on this machine: refused the same way, relative or absolute. */
  const local = (spec: string): [string, string, string] => [
    spec,
    `The package "${spec}" is a file on this machine, which the runner cannot reach`,
    'publish the tarball and give its https:// URL, or give a git URL',
  ]
  it.each([
    ['', 'The --package value is empty', 'give a version such as cairn-memory@0.1.0, a tarball URL or a git URL'],
    [
      'cairn-memory',
      'The package "cairn-memory" names no version, so the workflows would install whatever is latest on the day they run',
      'pin an exact version, such as --package cairn-memory@1.0.0',
    ],
    floating('cairn-memory@latest'),
    floating('cairn-memory@^0.1.0'),
    floating('~0.1'),
    floating('v0.1.0'),
    [
      'Cairn Memory@0.1.0',
      'The package "Cairn Memory@0.1.0" is not a version, a tarball URL or a git URL',
      'give one of cairn-memory@0.1.0, https://example.com/cairn-memory-0.1.0.tgz or github:owner/repo#<commit sha>',
    ],
    local('./cairn-memory-0.1.0.tgz'),
    local('/tmp/cairn-memory-0.1.0.tgz'),
    [
      'http://example.com/cairn-memory-0.1.0.tgz',
      'The package "http://example.com/cairn-memory-0.1.0.tgz" is fetched over plain http, where anyone on the way can change what the workflows run',
      'give its https:// URL',
    ],
    [
      'https://example.com/cairn',
      'The package "https://example.com/cairn" is not a tarball URL, as its path does not end in .tgz or .tar.gz',
      'give the URL of the .tgz file that npm pack makes, such as a release asset',
    ],
    [
      'https://example.com/x.tgz"\n  evil: ${{ github.token }}',
      'The package "https://example.com/x.tgz\\"\\n  evil: ${{ github.token }}" is not a URL cairn can pin',
      'give the plain https:// URL of the tarball',
    ],
    [
      'github:acme/cairn',
      'The package "github:acme/cairn" names no commit, tag or branch, so the workflows would install whatever the default branch holds on the day they run',
      'add one, such as github:acme/cairn#<commit sha>',
    ],
    [
      'github:acme/cairn#semver:^1.0.0',
      'The package "github:acme/cairn#semver:^1.0.0" does not name one commit, tag or branch after its #',
      'name one, such as github:acme/cairn#<commit sha>',
    ],
    [
      'git://github.com/acme/cairn.git#main',
      'The package "git://github.com/acme/cairn.git#main" is fetched without TLS, where anyone on the way can change what the workflows run',
      'use a git+https:// URL',
    ],
    [
      'git+file:///home/ada/cairn#main',
      'The package "git+file:///home/ada/cairn#main" is a repository on this machine, which the runner cannot reach',
      'push it where the runner can fetch it and give a git+https:// URL',
    ],
    [
      'github:acme#main',
      'The package "github:acme#main" is not a git URL cairn can pin',
      'give git+https://host/owner/repo.git#<commit sha> or github:owner/repo#<commit sha>',
    ],
  ])('refuses %j, saying why and the fix', (text, problem, fix) => {
    expect(parse(text)).toEqual({ok: false, problem, fix})
  })

  it('refuses a URL with a password or a token in it, and echoes none of it', () => {
    for (const text of [
      'https://ada:hunter22@example.com/cairn-memory-0.1.0.tgz',
      'https://tok3nvalue@example.com/cairn-memory-0.1.0.tgz',
      `git+https://tok3nvalue@github.com/acme/cairn.git#${SHA}`,
      `git+ssh://git:hunter22@github.com/acme/cairn.git#${SHA}`,
    ]) {
      const r = parse(text)
      expect(r).toEqual({
        ok: false,
        problem: 'The package URL carries a user name or a password, and the workflows are committed',
        fix: 'give a URL the runner can fetch without one',
      })
      expect(JSON.stringify(r)).not.toMatch(/hunter22|tok3nvalue/)
    }
  })

  it('every spec it takes is a YAML string that renders as itself and carries no GitHub expression', () => {
    for (const text of ['cairn-memory@0.2.0', 'https://example.com/a(1)/x.tgz?a=1&b=2;c', `github:acme/cairn#${SHA}`]) {
      const r = parse(text)
      expect(r.ok).toBe(true)
      const rendered = renderWorkflow(WORKFLOW, r.ok ? r.spec.text : '')
      expect(rendered).toContain(`  CAIRN_PACKAGE: "${text}"\n`)
      expect(rendered).not.toContain('${{')
    }
  })
})

describe('keptPackage: what a re-install without --package keeps', () => {
  const pinned = (pin: string) => renderWorkflow(WORKFLOW, pin)
  const url = 'https://example.com/cairn-memory-0.1.0.tgz'

  it('keeps the one URL the cairn workflows pin, however many pin it, beside files that pin none', () => {
    expect(keptPackage([pinned(url), null, pinned(url), pinned('cairn-memory@0.0.9')], RUNNING)).toEqual({
      kind: 'tarball',
      text: url,
    })
    expect(keptPackage([pinned(`github:acme/cairn#${SHA}`)], RUNNING)).toEqual({
      kind: 'git',
      text: `github:acme/cairn#${SHA}`,
      ref: SHA,
      commit: true,
    })
  })

  it('keeps no registry version, no pin it would refuse, none of a file of the user own, and none when two URLs differ', () => {
    expect(keptPackage([pinned('cairn-memory@0.2.0'), pinned('0.0.1')], RUNNING)).toBeNull()
    expect(keptPackage([pinned('/tmp/cairn-memory-0.1.0.tgz')], RUNNING)).toBeNull()
    expect(keptPackage([`name: ours\nenv:\n  CAIRN_PACKAGE: "${url}"\n`], RUNNING)).toBeNull()
    expect(keptPackage([pinned(url), pinned('https://example.com/cairn-memory-0.2.0.tgz')], RUNNING)).toBeNull()
    expect(keptPackage([null, null], RUNNING)).toBeNull()
  })
})
