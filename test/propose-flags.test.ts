import {describe, expect, it} from 'vitest'
import {parseCard} from '../src/domain/card/format.js'
import {cliInProcess} from './cli-in-process.js'
import {initRepo} from './helpers.js'

/** Issue 10: a card made from flags can carry the phrases recall needs. */
describe('propose recall phrase flags', () => {
  it('--trigger, --use-when, --ignore-when, --alias (language detected) and --topic, each repeatable', async () => {
    const repo = await initRepo()
    const r = await cliInProcess(
      [
        'propose',
        '--type',
        'pitfall',
        '--slug',
        'deepmerge-array-replace-trap',
        '--title',
        'deepMerge replaces arrays',
        '--summary',
        'When merging hook settings, deepMerge replaces arrays; append and dedupe instead.',
        '--trigger',
        'hooks disappeared after install',
        '--trigger',
        'settings merge lost my hooks',
        '--use-when',
        'merging JSON settings',
        '--ignore-when',
        'only reading settings',
        '--alias',
        'array merge overwrite',
        '--alias',
        '配置合并覆盖数组',
        '--topic',
        'config',
        '--json',
      ],
      {cwd: repo.dir, env: repo.env},
    )
    expect(r.code).toBe(0)
    const c = parseCard(repo.read('.cairn/pending/pitfall/deepmerge-array-replace-trap.md'), 'card')
    expect([c.recall.triggers, c.criteria.use_when, c.criteria.ignore_when, c.recall.aliases, c.recall.topics]).toEqual(
      [
        ['hooks disappeared after install', 'settings merge lost my hooks'],
        ['merging JSON settings'],
        ['only reading settings'],
        {en: ['array merge overwrite'], zh: ['配置合并覆盖数组']},
        ['config'],
      ],
    )
  })

  it('phrase flags without the card flags are a usage error, and nothing is written', async () => {
    const repo = await initRepo()
    const r = await cliInProcess(['propose', '--trigger', 'x y z'], {cwd: repo.dir, env: repo.env})
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      '--trigger, --use-when, --ignore-when, --alias and --topic go with --type, --slug, --title and --summary',
    )
    expect(repo.git('status', '--porcelain')).toBe('')
  })
})
