/**
 * What the workflows install, as `cairn ci install --package` takes it: a registry version (`cairn-memory@0.1.0`,
 * or `0.1.0` for this package), the https URL of a tarball (`npm pack` makes one), or a git URL at a ref
 * (`git+https://host/owner/repo.git#<ref>`, `github:owner/repo#<ref>`). Each is pinned: no range, no dist-tag, no
 * git URL without a ref. The value lands in a double-quoted YAML string that GitHub reads for expressions, so only
 * the characters of a URL are taken, never a quote, a backslash, `$`, a brace or a space.
 */
import {isCairnWorkflow, pinnedPackage} from './workflows.js'

export type PackageSpec =
  | {kind: 'registry'; text: string; name: string; version: string}
  | {kind: 'tarball'; text: string}
  /** commit: the ref is a full commit sha, the one kind of ref that cannot move. */
  | {kind: 'git'; text: string; ref: string; commit: boolean}

/** Where a runner's npm installs from: the workflows run npm outside the checkout, so no project .npmrc applies. */
export const DEFAULT_REGISTRY = 'https://registry.npmjs.org'

export type PackageSpecResult = {ok: true; spec: PackageSpec} | {ok: false; problem: string; fix: string}

const SAFE = /^[A-Za-z0-9._~:/?#@!&()*+,;=%-]+$/
const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/
const NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/
const GIT = /^(git\+https|git\+ssh|git\+http|git\+file|git):\/\//i
const HOSTED = /^(?:github|gitlab|bitbucket):[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9._-]+$/
const REF = /^[A-Za-z0-9._/-]+$/
const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/
const MAX = 500

// Echoes nothing of the URL: what it carries would be a secret.
const CREDENTIALS: PackageSpecResult = {
  ok: false,
  problem: 'The package URL carries a user name or a password, and the workflows are committed',
  fix: 'give a URL the runner can fetch without one',
}

const quote = (s: string) => JSON.stringify(s.length > 120 ? `${s.slice(0, 117)}...` : s)
const fail = (problem: string, fix: string): PackageSpecResult => ({ok: false, problem, fix})

/** Parses and checks a --package value; `running` is this cairn's package, for a bare version and the examples. */
export function parsePackageSpec(input: string, running: {name: string; version: string}): PackageSpecResult {
  const text = input.trim()
  if (!text)
    return fail(
      'The --package value is empty',
      `give a version such as ${running.name}@${running.version}, a tarball URL or a git URL`,
    )
  if (/^https?:\/\//i.test(text)) return tarball(text)
  if (GIT.test(text) || /^(github|gitlab|bitbucket|gist):/i.test(text)) return git(text)
  if (/^(\.{1,2}\/|\/|~\/|file:)/i.test(text) || /\.(tgz|tar\.gz)$/i.test(text))
    return fail(
      `The package ${quote(text)} is a file on this machine, which the runner cannot reach`,
      'publish the tarball and give its https:// URL, or give a git URL',
    )
  return registry(text, running)
}

function registry(text: string, running: {name: string; version: string}): PackageSpecResult {
  const at = text.lastIndexOf('@')
  const [name, version] = at > 0 ? [text.slice(0, at), text.slice(at + 1)] : [running.name, text]
  const pin = `pin an exact version, such as --package ${name}@${running.version}`
  const later = 'so the workflows would install whatever it points to on the day they run'
  // A bare word is a package name, as npm reads it; a bare range or tag-like version is this package's.
  if (at <= 0 && !/^[v=^~<>*\d]/.test(text) && NAME.test(text))
    return fail(
      `The package ${quote(text)} names no version, so the workflows would install whatever is latest on the day they run`,
      `pin an exact version, such as --package ${text}@1.0.0`,
    )
  if (!NAME.test(name) || name.length > 214)
    return fail(
      `The package ${quote(text)} is not a version, a tarball URL or a git URL`,
      `give one of ${running.name}@${running.version}, https://example.com/${running.name}-${running.version}.tgz ` +
        'or github:owner/repo#<commit sha>',
    )
  if (!EXACT.test(version)) return fail(`The package ${quote(text)} is a range or a dist-tag, ${later}`, pin)
  return {ok: true, spec: {kind: 'registry', text: `${name}@${version}`, name, version}}
}

function tarball(text: string): PackageSpecResult {
  const url = parseUrl(text)
  if (url && (url.username || url.password)) return CREDENTIALS
  if (!url || !SAFE.test(text) || text.length > MAX)
    return fail(`The package ${quote(text)} is not a URL cairn can pin`, 'give the plain https:// URL of the tarball')
  if (url.protocol !== 'https:')
    return fail(
      `The package ${quote(text)} is fetched over plain http, where anyone on the way can change what the workflows run`,
      'give its https:// URL',
    )
  if (!/\.(tgz|tar\.gz)$/i.test(url.pathname))
    return fail(
      `The package ${quote(text)} is not a tarball URL, as its path does not end in .tgz or .tar.gz`,
      'give the URL of the .tgz file that npm pack makes, such as a release asset',
    )
  return {ok: true, spec: {kind: 'tarball', text}}
}

function git(text: string): PackageSpecResult {
  const scheme = GIT.exec(text)?.[1].toLowerCase()
  const url = scheme ? parseUrl(text) : null
  // git+ssh://git@host/... names the ssh user, which is no secret.
  if (url && (url.password || (url.username && scheme !== 'git+ssh'))) return CREDENTIALS
  if (scheme === 'git' || scheme === 'git+http')
    return fail(
      `The package ${quote(text)} is fetched without TLS, where anyone on the way can change what the workflows run`,
      'use a git+https:// URL',
    )
  if (scheme === 'git+file')
    return fail(
      `The package ${quote(text)} is a repository on this machine, which the runner cannot reach`,
      'push it where the runner can fetch it and give a git+https:// URL',
    )
  const hash = text.indexOf('#')
  const ref = hash < 0 ? '' : text.slice(hash + 1)
  const base = hash < 0 ? text : text.slice(0, hash)
  if ((scheme ? !url : !HOSTED.test(base)) || !SAFE.test(base) || text.length > MAX)
    return fail(
      `The package ${quote(text)} is not a git URL cairn can pin`,
      'give git+https://host/owner/repo.git#<commit sha> or github:owner/repo#<commit sha>',
    )
  if (!ref)
    return fail(
      `The package ${quote(text)} names no commit, tag or branch, so the workflows would install whatever the ` +
        'default branch holds on the day they run',
      `add one, such as ${base}#<commit sha>`,
    )
  if (ref.startsWith('semver:') || !REF.test(ref))
    return fail(
      `The package ${quote(text)} does not name one commit, tag or branch after its #`,
      `name one, such as ${base}#<commit sha>`,
    )
  return {ok: true, spec: {kind: 'git', text, ref, commit: COMMIT.test(ref)}}
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text)
  } catch {
    return null
  }
}

/**
 * The URL (a tarball's or a git one) the cairn workflows among `existing` pin, which a re-install without --package
 * keeps: cairn cannot tell which URL holds a newer build. A registry version is not kept: it follows the cairn that
 * runs, so an upgrade re-pins it. Null when no workflow pins a URL, or when they pin different ones.
 */
export function keptPackage(
  existing: readonly (string | null)[],
  running: {name: string; version: string},
): PackageSpec | null {
  const kept = new Map<string, PackageSpec>()
  for (const text of existing) {
    const pin = text !== null && isCairnWorkflow(text) ? pinnedPackage(text) : null
    const parsed = pin === null ? null : parsePackageSpec(pin, running)
    if (parsed?.ok && parsed.spec.kind !== 'registry') kept.set(parsed.spec.text, parsed.spec)
  }
  return kept.size === 1 ? [...kept.values()][0] : null
}
