import fs from 'node:fs'
import path from 'node:path'
import type {Context} from '../../context.js'
import {COMMIT, orgCacheKey, type OrgPin} from '../../domain/org.js'
import {personalHome, type Store} from '../layout.js'

/** Where the org layers' cache keeps each URL's repository and trees (org-cache.ts); no git, for the hooks. */
export const orgCacheRoot = (ctx: Context): string => path.join(personalHome(ctx), '.cache', 'org')
export const orgCacheDir = (ctx: Context, url: string): string => path.join(orgCacheRoot(ctx), orgCacheKey(url))
export const repoOf = (dir: string): string => path.join(dir, 'repo.git')
export const orgTreeDir = (ctx: Context, pin: Pick<OrgPin, 'url' | 'commit'>): string =>
  path.join(orgCacheDir(ctx, pin.url), 'trees', pin.commit)

export const isDir = (p: string): boolean => {
  try {
    return fs.lstatSync(p).isDirectory()
  } catch {
    return false
  }
}

/** The org layer as a store, when its tree for the pinned commit is in the cache; else null. */
export function orgStore(ctx: Context, pin: OrgPin): Store | null {
  const root = orgTreeDir(ctx, pin)
  if (!COMMIT.test(pin.commit) || !isDir(path.join(root, '.cairn'))) return null
  return {kind: 'org', root, prefix: '.cairn', org: {name: pin.name, commit: pin.commit}}
}

/**
 * The options every git call that reaches an org remote takes: a transfer that stalls this many seconds gives up.
 * With NO_PROMPT, no password prompt ever waits for a user: the credential helper, ssh agent or token answers.
 */
export const network = (stallSeconds: number): string[] => [
  '-c',
  'http.lowSpeedLimit=1',
  '-c',
  `http.lowSpeedTime=${stallSeconds}`,
]
export const NO_PROMPT = {GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never'}
