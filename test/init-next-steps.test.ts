import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {cli, ROOT, tempDir, tempRepo} from './helpers.js'

const editor = `'${process.execPath}' '${path.join(ROOT, 'test', 'fixtures', 'edit-card.mjs')}' fill`

describe('cairn init ends with the next steps', () => {
  it('prints them after the files, gives them in --json, and each one runs as printed', async () => {
    const repo = tempRepo()
    const r = await cli(['init'], {cwd: repo.dir, env: repo.env})
    expect(r.code).toBe(0)
    expect(r.stdout.replace(/commit [0-9a-f]{7}/, 'commit SHA'))
      .toBe(`Initialised the project store at ${repo.dir} (commit SHA):
  .cairn/config.yaml
  .cairn/.gitignore
  .cairn/.gitattributes

Next steps:
  cairn install --agent claude  connect an agent to this repository (claude, codex, cursor or gemini)
  cairn ci install              add the GitHub workflows: review in pull requests, weekly maintain
  cairn propose --edit          propose a first card, written in your editor
`)
    const again = await cli(['init', '--json'], {cwd: repo.dir, env: repo.env})
    const steps: {command: string}[] = again.json().data.next_steps
    expect(steps.map(s => s.command)).toEqual([
      'cairn install --agent claude',
      'cairn ci install',
      'cairn propose --edit',
    ])
    // Run each as a user would (the editor fills the template in).
    const env = {...repo.env, EDITOR: editor, TMPDIR: tempDir()}
    for (const {command} of steps) {
      const [bin, ...args] = command.split(' ')
      const run = await cli(args, {cwd: repo.dir, env})
      expect([bin, run.code], command).toEqual(['cairn', 0])
    }
    expect(
      [
        '.claude/settings.json',
        '.github/workflows/cairn-review.yml',
        '.cairn/pending/pitfall/deepmerge-array-replace-trap.md',
      ].filter(f => !fs.existsSync(path.join(repo.dir, f))),
    ).toEqual([])
  })

  it('for the personal store: connect an agent for every project, propose a personal card', async () => {
    const repo = tempRepo()
    const r = await cli(['init', '--personal', '--json'], {cwd: repo.dir, env: repo.env})
    const steps: {command: string}[] = r.json().data.next_steps
    expect(steps.map(s => s.command)).toEqual([
      'cairn install --agent claude --scope user',
      'cairn propose --edit --layer personal',
    ])
    const env = {...repo.env, EDITOR: editor, TMPDIR: tempDir()}
    for (const {command} of steps) {
      const run = await cli(command.split(' ').slice(1), {cwd: repo.dir, env})
      expect(run.code, command).toBe(0)
    }
    const personal = repo.env.CAIRN_HOME as string
    expect(
      [
        '.claude/settings.json',
        `${path.relative(repo.home, personal)}/pending/pitfall/deepmerge-array-replace-trap.md`,
      ].filter(f => !fs.existsSync(path.join(repo.home, f))),
    ).toEqual([])
  })
})
