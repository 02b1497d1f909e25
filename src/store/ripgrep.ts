import {spawn} from 'node:child_process'
import {rgPath} from '@vscode/ripgrep'
import {CairnError} from '../domain/errors.js'

/**
 * Files under dirs containing any of the terms (fixed strings, case-insensitive), found by the
 * ripgrep binary: it reads the working tree as it is, uncommitted edits included.
 */
export function filesContaining(dirs: readonly string[], terms: readonly string[]): Promise<string[]> {
  if (dirs.length === 0 || terms.length === 0) return Promise.resolve([])
  const args = ['--files-with-matches', '--fixed-strings', '--ignore-case', '--no-messages', '--no-ignore', '--glob', '*.md', ...terms.flatMap(t => ['-e', t]), '--', ...dirs]
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, {stdio: ['ignore', 'pipe', 'pipe']})
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', d => out.push(d))
    child.stderr.on('data', d => err.push(d))
    child.on('error', e => reject(new CairnError('internal', `ripgrep could not start (${rgPath}): ${e.message}`)))
    child.on('close', code => {
      // 0: matches, 1: no match; 2 with output means some paths were unreadable but others matched.
      const files = Buffer.concat(out).toString('utf8').split('\n').filter(Boolean)
      if (code === 0 || code === 1 || (code === 2 && files.length)) resolve(files.sort())
      else reject(new CairnError('internal', `ripgrep failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim()}`))
    })
  })
}
