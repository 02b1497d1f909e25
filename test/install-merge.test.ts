import {describe, expect, it} from 'vitest'
import {unifiedDiff} from '../src/domain/agents/diff.js'
import {cairnHookIdentity, CLIENTS, hookCommand, shellQuote} from '../src/domain/agents/index.js'
import {planInstall, planUninstall} from '../src/domain/agents/settings.js'
import {CairnError} from '../src/domain/errors.js'
import {USER_SETTINGS} from './install-helpers.js'

const claude = CLIENTS.claude
const commandFor = (e: Parameters<typeof hookCommand>[1]) => hookCommand({kind: 'path'}, e, 'claude')
const refused = (fn: () => unknown): CairnError => {
  try {
    fn()
  } catch (error) {
    if (error instanceof CairnError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('the settings merge (pure)', () => {
  it('is exactly undone by the structural uninstall, in tabs and CRLF too, with or without the record', () => {
    const tabs = USER_SETTINGS.replace(/ {4}/g, '\t').replace(/\n/g, '\r\n')
    for (const original of [USER_SETTINGS, tabs]) {
      const plan = planInstall(original, claude, commandFor, 'settings.json')
      expect(plan.text).not.toBe(original)
      expect(plan.text.split(/\r?\n/).length).toBe(plan.text.split('\n').length)
      if (original === tabs) expect(plan.text).toContain('\r\n\t\t\t\t\t\t"command": "cairn hook stop --agent claude",')
      expect(planUninstall(plan.text, claude, 'settings.json', plan.createdKeys).text).toBe(original)
      expect(planUninstall(plan.text, claude, 'settings.json').text).toBe(original)
    }
  })

  it('refuses a "hooks" that is not an object, and an event that is not an array', () => {
    const notObject = refused(() => planInstall('{"hooks": []}', claude, commandFor, '.claude/settings.json'))
    expect(notObject.message).toContain('.claude/settings.json: hooks: is not a JSON object')
    const notArray = refused(() => planInstall('{"hooks": {"Stop": {}}}', claude, commandFor, '.claude/settings.json'))
    expect(notArray.message).toContain('.claude/settings.json: hooks.Stop: is not an array')
  })

  it('reads comments only where the client does (Gemini), and refuses them for plain-JSON clients', () => {
    const text = '{\n  // mine\n  "a": 1\n}\n'
    expect(refused(() => planInstall(text, claude, commandFor, 'x.json')).message).toContain(
      'this client reads plain JSON, without comments',
    )
    const gemini = planInstall(text, CLIENTS.gemini, e => hookCommand({kind: 'path'}, e, 'gemini'), 'x.json')
    expect(gemini.text.startsWith('{\n  // mine\n  "a": 1,\n  "hooks": {\n')).toBe(true)
  })

  it("leaves other clients' cairn hooks and look-alike commands alone on uninstall", () => {
    const other = {
      hooks: {
        Stop: [
          {hooks: [{type: 'command', command: 'cairn hook stop --agent cursor'}]},
          {hooks: [{type: 'command', command: 'mycairn hook stop --agent claude'}]},
        ],
      },
    }
    const text = JSON.stringify(other, null, 2)
    const plan = planUninstall(text, claude, 'x.json')
    expect(plan.entries).toEqual([])
    expect(plan.text).toBe(text)
  })
})

describe('hook commands', () => {
  it('are recognised whichever way cairn was started', () => {
    expect(cairnHookIdentity('cairn hook stop --agent claude')).toEqual({event: 'stop', client: 'claude'})
    const absolute = `'/opt/my node/bin/node' /usr/lib/node_modules/cairn-memory/bin/run.js hook pre-tool-use --agent codex`
    expect(cairnHookIdentity(absolute)).toEqual({event: 'pre-tool-use', client: 'codex'})
    const windows = hookCommand(
      {kind: 'absolute', node: 'C:\\Program Files\\node.exe', script: 'C:\\cairn\\bin\\run.js', windows: true},
      'stop',
      'cursor',
    )
    expect(windows).toBe('"C:\\Program Files\\node.exe" "C:\\cairn\\bin\\run.js" hook stop --agent cursor')
    expect(cairnHookIdentity(windows)).toEqual({event: 'stop', client: 'cursor'})
    const quoted = hookCommand(
      {kind: 'absolute', node: "/Users/o'hara/node", script: '/x y/bin/run.js'},
      'stop',
      'claude',
    )
    expect(cairnHookIdentity(quoted)).toEqual({event: 'stop', client: 'claude'})
    expect(cairnHookIdentity('cairn hook stop --agent claude && rm -rf /')).toBeNull()
    expect(cairnHookIdentity('cairn hook bogus --agent claude')).toBeNull()
    expect(cairnHookIdentity(42)).toBeNull()
  })

  it("are cairn's only in the exact forms cairn writes: a command the user built around one is theirs", () => {
    for (const command of [
      '/usr/local/bin/notify-me.sh && cairn hook stop --agent claude',
      'CAIRN_HOOK_DEADLINE_MS=3000 cairn hook stop --agent claude',
      'env CAIRN_DEBUG=1 cairn hook stop --agent claude',
      '/usr/local/bin/with-secrets cairn hook stop --agent claude',
      'CAIRN_HOOK_DEADLINE_MS=3000 /usr/bin/node /opt/cairn/bin/run.js hook stop --agent claude',
      'timeout 5 /usr/bin/node /opt/cairn/bin/run.js hook stop --agent claude',
      'cairn hook stop --agent claude; say done',
      'cairn hook stop --agent claude ',
      'cairn  hook stop --agent claude',
      'mycairn hook stop --agent claude',
      '/usr/local/bin/cairn hook stop --agent claude',
      'npx cairn-memory hook stop --agent claude',
      './bin/run.js hook stop --agent claude',
      'node bin/run.js hook stop --agent claude',
      '/usr/bin/node /opt/cairn/lib/main.js hook stop --agent claude',
      // Quoted where cairn would leave it bare: cairn never wrote it so.
      "'/usr/bin/node' /opt/cairn/bin/run.js hook stop --agent claude",
    ]) {
      expect([command, cairnHookIdentity(command)]).toEqual([command, null])
    }
  })

  it('quote paths for the shell only when needed', () => {
    expect(shellQuote('/usr/bin/node', false)).toBe('/usr/bin/node')
    expect(shellQuote("/Users/o'hara/my node", false)).toBe(`'/Users/o'\\''hara/my node'`)
    expect(shellQuote('C:\\Program Files\\node.exe', true)).toBe('"C:\\Program Files\\node.exe"')
    expect(hookCommand({kind: 'absolute', node: '/a b/node', script: '/c/bin/run.js'}, 'stop', 'claude')).toBe(
      `'/a b/node' /c/bin/run.js hook stop --agent claude`,
    )
  })
})

describe('unifiedDiff', () => {
  it('prints hunks with context, and says when a file lacks its final newline', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n'
    const after = 'a\nb\nc\nD\ne\nf\ng\nh'
    expect(unifiedDiff('f.txt', before, after)).toBe(
      [
        '--- a/f.txt',
        '+++ b/f.txt',
        '@@ -1,8 +1,8 @@',
        ' a',
        ' b',
        ' c',
        '-d',
        '+D',
        ' e',
        ' f',
        ' g',
        '-h',
        '+h',
        '\\ No newline at end of file',
      ].join('\n'),
    )
    expect(unifiedDiff('f.txt', 'x\n', null)).toBe(['--- a/f.txt', '+++ /dev/null', '@@ -1,1 +0,0 @@', '-x'].join('\n'))
    expect(unifiedDiff('f.txt', 'same\n', 'same\n')).toBe('')
  })
})
