import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {doctor} from '../src/app/doctor.js'
import {install} from '../src/app/install.js'
import {geminiTrusted} from '../src/domain/agents/trust.js'
import {initRepo, type Repo} from './helpers.js'
import {shim, skillTemplates, withPath} from './install-helpers.js'

const clientChecks = async (repo: Repo) =>
  (await doctor(repo.ctx())).checks
    .filter(c => c.check === 'codex-hooks' || c.check === 'gemini-trust')
    .map(c => [c.check, c.status, c.detail])

const home = (repo: Repo, rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(repo.home, rel)), {recursive: true})
  fs.writeFileSync(path.join(repo.home, rel), text)
}

describe('cairn doctor: will the clients run the installed hooks', () => {
  it('Codex: an untrusted project, then hooks without a trusted hash, then all trusted', async () => {
    const repo = await initRepo()
    await install(withPath(repo, shim(0)), {agent: 'codex', skillsRoot: skillTemplates()})
    const hooks = path.join(repo.dir, '.codex/hooks.json')
    const config = path.join(repo.home, '.codex/config.toml')
    expect(await clientChecks(repo)).toEqual([
      [
        'codex-hooks',
        'warning',
        `Codex reads ${hooks} only in a trusted project, and ${config} does not trust this one`,
      ],
    ])
    const trusted = `[projects.${JSON.stringify(repo.dir)}]\ntrust_level = "trusted"\n`
    home(repo, '.codex/config.toml', trusted)
    expect((await clientChecks(repo))[0]).toEqual([
      'codex-hooks',
      'warning',
      `Codex skips 6 of the 6 cairn hooks in ${hooks}: it has no trusted hash for them in ${config}`,
    ])
    // The keys as Codex writes them after /hooks: the file, the event in snake case, the group, the handler.
    const events = ['session_start', 'user_prompt_submit', 'pre_tool_use', 'post_tool_use', 'stop', 'session_end']
    const states = events.map(e => `[hooks.state.${JSON.stringify(`${hooks}:${e}:0:0`)}]\ntrusted_hash = "sha256:x"\n`)
    home(repo, '.codex/config.toml', `${trusted}${states.slice(1).join('')}`)
    expect((await clientChecks(repo))[0][2]).toBe(
      `Codex skips 1 of the 6 cairn hooks in ${hooks}: it has no trusted hash for them in ${config}`,
    )
    home(repo, '.codex/config.toml', `${trusted}${states.join('')}`)
    expect((await clientChecks(repo))[0].slice(0, 2)).toEqual(['codex-hooks', 'ok'])
  })

  it('a client file that cannot be read (a folder in its place) costs the check, never the doctor run', async () => {
    const repo = await initRepo()
    await install(withPath(repo, shim(0)), {agent: 'codex', skillsRoot: skillTemplates()})
    fs.mkdirSync(path.join(repo.home, '.codex/config.toml'), {recursive: true})
    const [folder] = await clientChecks(repo)
    expect(folder.slice(0, 2)).toEqual(['codex-hooks', 'warning'])
    expect(folder[2]).toContain('config.toml cannot be used (it cannot be read: ')
    expect(folder[2]).toContain('config.toml is not a regular file')
    // Malformed TOML is said to be so, not read as "untrusted".
    fs.rmSync(path.join(repo.home, '.codex/config.toml'), {recursive: true})
    home(repo, '.codex/config.toml', '[projects\ntrust_level = ')
    expect((await clientChecks(repo))[0][2]).toContain('config.toml cannot be used (it is not valid TOML: ')
  })

  it("a clone's .codex/hooks.json or .gemini/settings.json that is a link (to /dev/zero) is not followed", async () => {
    const repo = await initRepo()
    fs.mkdirSync(path.join(repo.dir, '.codex'), {recursive: true})
    fs.mkdirSync(path.join(repo.dir, '.gemini'), {recursive: true})
    fs.symlinkSync('/dev/zero', path.join(repo.dir, '.codex/hooks.json'))
    fs.symlinkSync('/dev/zero', path.join(repo.dir, '.gemini/settings.json'))
    expect(await clientChecks(repo)).toEqual([])
  })

  it('Codex: a cairn hook the user turned off is named as off, not as untrusted', async () => {
    const repo = await initRepo()
    await install(withPath(repo, shim(0)), {agent: 'codex', skillsRoot: skillTemplates()})
    const hooks = path.join(repo.dir, '.codex/hooks.json')
    const state = (e: string, extra = '') =>
      `[hooks.state.${JSON.stringify(`${hooks}:${e}:0:0`)}]\ntrusted_hash = "sha256:x"\n${extra}`
    const events = ['session_start', 'user_prompt_submit', 'pre_tool_use', 'post_tool_use', 'stop', 'session_end']
    const trusted = `[projects.${JSON.stringify(repo.dir)}]\ntrust_level = "trusted"\n`
    home(
      repo,
      '.codex/config.toml',
      trusted + events.map(e => state(e, e === 'stop' ? 'enabled = false\n' : '')).join(''),
    )
    expect((await clientChecks(repo))[0][2]).toBe(
      `1 of the 6 cairn hooks in ${hooks} are turned off in ${path.join(repo.home, '.codex/config.toml')} (enabled = false)`,
    )
  })

  it('Gemini CLI: a folder it does not trust, then one it does', async () => {
    const repo = await initRepo()
    await install(withPath(repo, shim(0)), {agent: 'gemini', skillsRoot: skillTemplates()})
    expect(await clientChecks(repo)).toEqual([
      [
        'gemini-trust',
        'warning',
        `Gemini CLI does not trust ${repo.dir}, so it skips the cairn hooks in .gemini/settings.json`,
      ],
    ])
    home(repo, '.gemini/trustedFolders.json', JSON.stringify({[path.dirname(repo.dir)]: 'TRUST_FOLDER'}))
    expect(await clientChecks(repo)).toEqual([
      ['gemini-trust', 'ok', `Gemini CLI trusts ${repo.dir}: its cairn hooks run`],
    ])
  })

  it('reads trustedFolders.json as Gemini CLI does: the longest rule that holds the folder decides', () => {
    const rules = JSON.stringify({
      '/secret': 'DO_NOT_TRUST',
      '/secret/publickeys': 'TRUST_FOLDER',
      '/trustedparent/trustme': 'TRUST_PARENT',
      '/user/folder': 'TRUST_FOLDER',
    })
    const cases = ['/secret', '/secret/publickeys/keys', '/trustedparent/other', '/user/folder/x', '/elsewhere']
    expect(cases.map(c => geminiTrusted(c, rules))).toEqual([false, true, true, true, false])
    // Gemini CLI reads the file with comments allowed.
    expect(geminiTrusted('/user/folder/x', '{\n  // mine\n  "/user/folder": "TRUST_FOLDER",\n}')).toBe(true)
    expect(geminiTrusted('/user/folder', null)).toBe(false)
    // A file Gemini cannot parse gives it no rules; folder trust turned off trusts every folder.
    expect(geminiTrusted('/user/folder', '{"/user/folder": "TRUST_FOLDER" garbage')).toBe(false)
    expect(geminiTrusted('/elsewhere', null, '{"security": {"folderTrust": {"enabled": false}}}')).toBe(true)
    expect(geminiTrusted('/user/folder', '{not json')).toBe(false)
  })
})
