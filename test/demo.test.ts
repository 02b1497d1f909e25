import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import {describe, expect, it} from 'vitest'
import {BIN, ROOT, sandboxEnv, tempDir} from './helpers.js'

describe('demo', () => {
  it('runs every step on the sample cards in a throwaway repo, exits 0 and leaves nothing behind', () => {
    const home = tempDir()
    const env = {...sandboxEnv(home), TMPDIR: tempDir('cairn-demo-tmp-')}
    const r = spawnSync(process.execPath, [BIN, 'demo'], {cwd: ROOT, env, encoding: 'utf8'})
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    const commands = [...r.stdout.matchAll(/^\$ (cairn .*)$/gm)].map(m => m[1])
    expect(commands).toEqual([
      'cairn init',
      'cairn propose templates/demo/cards.json',
      'cairn lint',
      'cairn review',
      'cairn review approve --all',
      'cairn list',
      'cairn recall "merge the hook settings into .claude/settings.json"',
      'cairn show deepmerge-array-replace-trap --section rule',
      'cairn log deepmerge-array-replace-trap',
    ])
    expect(r.stdout).toContain(
      'created  deepmerge-array-replace-trap  pitfall    project  .cairn/pending/pitfall/deepmerge-array-replace-trap.md',
    )
    expect(r.stdout).toContain('3 card file(s) checked: 0 error(s), 0 warning(s).')
    expect(r.stdout).toContain('Never deepMerge hook settings.')
    expect(r.stdout).toContain('- deepMerge replaces arrays (deepmerge-array-replace-trap) [should, high risk]\n')
    expect(r.stdout).toContain('  Full rule: cairn show deepmerge-array-replace-trap --section rule\n')
    expect(r.stdout).toContain(
      '\nC1 [type=guideline] [layer=team] [load=recall] [relevance_scope=narrow] slug=browser-validation-user-path\n',
    )
    expect(r.stdout).toMatch(
      /approved\s+deepmerge-array-replace-trap\s+project\s+\.cairn\/pending\/pitfall\/deepmerge-array-replace-trap\.md -> \.cairn\/cards\/pitfall\/deepmerge-array-replace-trap\.md/,
    )
    expect(r.stdout).toMatch(
      /approve\s+cairn-demo\s+browser-validation-user-path,stage-only-touched-paths,deepmerge-array-replace-trap/,
    )
    expect(r.stdout).toMatch(/Demo finished; the temp repo was removed\.\n$/)
    expect(fs.readdirSync(env.TMPDIR)).toEqual([])
  })

  it('--json returns the steps in the envelope', () => {
    const env = {...sandboxEnv(tempDir()), TMPDIR: tempDir('cairn-demo-tmp-')}
    const r = spawnSync(process.execPath, [BIN, 'demo', '--json'], {cwd: ROOT, env, encoding: 'utf8'})
    expect(r.status).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.ok).toBe(true)
    expect(out.data.steps.map((s: {step: string}) => s.step)).toEqual([
      'init',
      'propose',
      'lint',
      'review',
      'approve',
      'list',
      'recall',
      'show',
      'log',
    ])
    expect(out.data.steps[1].result.cards.map((c: {outcome: string}) => c.outcome)).toEqual([
      'created',
      'created',
      'created',
    ])
  })
})
