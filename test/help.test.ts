import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {Help} from '@oclif/core'
import {describe, expect, it} from 'vitest'
import {cliInProcess, oclifConfig} from './cli-in-process.js'
import {cli, sandboxEnv, tempDir} from './helpers.js'

const FISH = spawnSync('fish', ['--version']).status === 0

const squash = (s: string) => s.replace(/\s+/g, ' ')

/** oclif's own help renderer, as `cairn ... --help` runs it, with its output kept instead of printed. */
class CapturedHelp extends Help {
  text = ''
  protected override log(...args: string[]): void {
    this.text += `${args.join('\n')}\n`
  }
}

const REVIW =
  'cairn: "reviw" is not a cairn command. Did you mean "review"? Fix: run "cairn review", or see "cairn help" for the commands.\n'

/** The rest of the file runs cairn in process (test/cli-in-process.ts); these run the binary itself. */
describe('the binary itself', () => {
  it('as a process: help on stdout, a did-you-mean and a usage error on stderr with exit 2, -v; the in-process runner prints the same', async () => {
    const cwd = tempDir()
    const argvs = [['--help'], ['reviw'], ['reviw', '--json'], ['list', '--bogus'], ['-v']]
    const [help, reviw, json, bogus, version] = await Promise.all(argvs.map(args => cli(args, {cwd})))
    expect([help.code, help.stderr]).toEqual([0, ''])
    expect(help.stdout).toContain('\nUSAGE\n  $ cairn [COMMAND]\n')
    expect(help.stdout).toMatch(/^ {2}board {4}The board: the folded current state of ongoing work/m)
    expect([reviw.code, reviw.stdout, reviw.stderr]).toEqual([2, '', REVIW])
    expect([json.code, json.json(), json.stderr]).toEqual([
      2,
      {ok: false, error: {code: 'usage', message: REVIW.slice('cairn: '.length, -1), data: {command: 'reviw'}}},
      '',
    ])
    expect([bogus.code, bogus.stdout, bogus.stderr]).toEqual([
      2,
      '',
      'cairn: Unknown flag --bogus. Fix: see "cairn list --help" for the flags.\n',
    ])
    expect([version.code, version.stdout, version.stderr]).toEqual([
      0,
      expect.stringMatching(/^cairn-memory\/\d+\.\d+\.\d+ \S+ node-v\S+\n$/),
      '',
    ])
    const inProcess = []
    for (const args of argvs) inProcess.push(await cliInProcess(args, {cwd}))
    const outcome = (r: {code: number; stdout: string; stderr: string}) => [r.code, r.stdout, r.stderr]
    expect(inProcess.map(outcome)).toEqual([help, reviw, json, bogus, version].map(outcome))
  })
})

describe('help', () => {
  it('cairn --help lists every command with its summary', async () => {
    const config = await oclifConfig()
    const r = await cliInProcess(['--help'], {cwd: tempDir()})
    expect(r.code).toBe(0)
    for (const c of config.commands) {
      expect(r.stdout).toContain(c.id.split(':')[0])
    }
    expect(config.commands.map(c => c.id).sort()).toEqual(
      expect.arrayContaining(['demo', 'doctor', 'init', 'lint', 'list', 'log', 'propose', 'show']),
    )
  })

  it("every command's --help describes each of its flags and arguments accurately", async () => {
    const config = await oclifConfig()
    // oclif's renderer rewrites the ids of the commands it shows to their spaced form; keep the real ones.
    // cairn's own commands; help and autocomplete are oclif's plugins, with help of their own.
    for (const [id, c] of config.commands
      .filter(c => c.pluginName === config.pjson.name)
      .map(c => [c.id, c] as const)) {
      const help = new CapturedHelp(config, config.pjson.oclif.helpOptions)
      await help.showHelp([...id.split(':'), '--help'])
      const out = squash(help.text)
      expect(out, id).toContain(`USAGE $ cairn ${id.split(':').join(' ')}`)
      if (c.summary) expect(out, id).toContain(squash(c.summary))
      for (const [name, flag] of Object.entries(c.flags)) {
        expect(out, `${id} --${name}`).toContain(`--${name}`)
        if (flag.description) expect(out, `${id} --${name}`).toContain(squash(flag.description))
        if (flag.type === 'option' && flag.options) expect(out, `${id} --${name}`).toContain(`<option>`)
      }
      for (const [name, arg] of Object.entries(c.args)) {
        expect(out, `${id} ${name}`).toContain(name.toUpperCase())
        if (arg.description) expect(out, `${id} ${name}`).toContain(squash(arg.description))
      }
    }
  })
})

describe('help and errors, the way oclif users expect', () => {
  it('help, help <topic>, -h and -v work', async () => {
    const cwd = tempDir()
    const help = await cliInProcess(['help'], {cwd})
    const dashH = await cliInProcess(['-h'], {cwd})
    expect([help.code, dashH.code, dashH.stdout]).toEqual([0, 0, help.stdout])
    expect(help.stdout).toMatch(/^ {2}board {4}The board: the folded current state of ongoing work/m)
    const topic = await cliInProcess(['help', 'board'], {cwd})
    expect(topic.stdout).toMatch(/^The board: the folded current state of ongoing work/)
    expect(topic.stdout).toContain('board state')
    const commandHelp = await cliInProcess(['board', 'state', '-h'], {cwd})
    expect([commandHelp.code, commandHelp.stdout]).toEqual([0, expect.stringContaining('$ cairn board state')])
    const version = await cliInProcess(['-v'], {cwd})
    expect([version.code, version.stdout]).toEqual([0, expect.stringMatching(/^cairn-memory\/\d+\.\d+\.\d+ /)])
  })

  it('every topic has a description of its own, not the text of its first command', async () => {
    const config = await oclifConfig()
    const topics = [
      ...new Set(
        config.commands
          .map(c => c.id.split(':'))
          .filter(p => p.length > 1)
          .map(p => p[0]),
      ),
    ]
    for (const t of topics) {
      const first = config.commands.find(c => c.id.startsWith(`${t}:`))!
      expect(config.findTopic(t)?.description, t).toBeTruthy()
      expect(config.findTopic(t)?.description, t).not.toBe(first.summary)
    }
  })

  it('a mistyped command suggests the closest one, spelt with spaces, and exits 2', async () => {
    const cwd = tempDir()
    const r = await cliInProcess(['reviw'], {cwd})
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      'cairn: "reviw" is not a cairn command. Did you mean "review"? Fix: run "cairn review", or see "cairn help" for the commands.\n',
    ])
    const board = await cliInProcess(['bord', 'state'], {cwd})
    expect(board.stderr).toBe(
      'cairn: "bord state" is not a cairn command. Did you mean "board state"? Fix: run "cairn board state", or see "cairn help" for the commands.\n',
    )
    const json = await cliInProcess(['reviw', '--json'], {cwd})
    expect([json.code, json.json()]).toEqual([
      2,
      {
        ok: false,
        error: {
          code: 'usage',
          message:
            '"reviw" is not a cairn command. Did you mean "review"? Fix: run "cairn review", or see "cairn help" for the commands.',
          data: {command: 'reviw'},
        },
      },
    ])
    // Words after the mistyped one (an id, say) are neither quoted nor in the way, but kept in the fix; after a known
    // topic only the mistyped word is quoted (issue 34).
    const shwo = await cliInProcess(['shwo', 'deepmerge-array-replace-trap'], {cwd})
    expect([shwo.code, shwo.stderr]).toEqual([
      2,
      'cairn: "shwo" is not a cairn command. Did you mean "show"? Fix: run "cairn show deepmerge-array-replace-trap", or see "cairn help" for the commands.\n',
    ])
    const aprove = await cliInProcess(['review', 'aprove', 'deepmerge-array-replace-trap'], {cwd})
    expect(aprove.stderr).toBe(
      'cairn: "aprove" is not a command of cairn review. Did you mean "approve"? ' +
        'Fix: run "cairn review approve deepmerge-array-replace-trap", or see "cairn help review" for the commands.\n',
    )
    const help = await cliInProcess(['help', 'reviw'], {cwd})
    expect([help.code, help.stdout, help.stderr]).toEqual([
      2,
      '',
      'cairn: "reviw" is not a cairn command. Did you mean "review"? Fix: run "cairn review", or see "cairn help" for the commands.\n',
    ])
    const flag = await cliInProcess(['-x'], {cwd})
    expect([flag.code, flag.stderr]).toEqual([
      2,
      'cairn: "-x" is not a cairn flag. Fix: see "cairn --help" for the commands and the flags every command takes.\n',
    ])
    const far = await cliInProcess(['xyzzy-quux'], {cwd})
    expect(far.stderr).toBe('cairn: "xyzzy-quux" is not a cairn command. Fix: see "cairn help" for the commands.\n')
  })

  it('a usage error says what is wrong and the fix, names a missing flag as it is typed, and suggests a close flag', async () => {
    const cwd = tempDir()
    const r = await cliInProcess(['list', '--bogus'], {cwd})
    expect([r.code, r.stderr]).toEqual([
      2,
      'cairn: Unknown flag --bogus. Fix: see "cairn list --help" for the flags.\n',
    ])
    const close = await cliInProcess(['list', '--statu', 'draft'], {cwd})
    expect([close.code, close.stderr]).toEqual([
      2,
      'cairn: Unknown flag --statu. Did you mean "--status"? Fix: use --status; "cairn list --help" lists the flags.\n',
    ])
    const missing = await cliInProcess(['review', 'reject', 'deepmerge-array-replace-trap'], {cwd})
    expect([missing.code, missing.stderr]).toEqual([
      2,
      'cairn: Missing the required flag --reason. Usage: cairn review reject [ids] --reason <value>. ' +
        'Fix: give it; "cairn review reject --help" shows examples.\n',
    ])
  })

  it('a missing argument is named by what it is, with the usage and an example, for every command (issue 34)', async () => {
    const cwd = tempDir()
    const show = await cliInProcess(['show'], {cwd})
    expect([show.code, show.stdout, show.stderr]).toEqual([
      2,
      '',
      'cairn: Missing the card id. Usage: cairn show <id>. ' +
        'Fix: give it, as in "cairn show deepmerge-array-replace-trap".\n',
    ])
    const annotate = await cliInProcess(['board', 'annotate', '--json'], {cwd})
    expect([annotate.code, annotate.json()]).toEqual([
      2,
      {
        ok: false,
        error: {
          code: 'usage',
          message:
            'Missing the item id the annotation is about and the annotation text. ' +
            'Usage: cairn board annotate <id> <text> --batch-id <value>. ' +
            'Fix: give them; "cairn board annotate --help" shows examples.',
          data: null,
        },
      },
    ])
    const recall = await cliInProcess(['recall'], {cwd})
    expect([recall.code, recall.stderr]).toEqual([
      2,
      'cairn: Missing the task or question to recall for. Usage: cairn recall <query> [--path <path>]. ' +
        'Fix: give it in quotes, such as: cairn recall "fix the settings page" --path apps/web/src/settings.tsx.\n',
    ])
  })

  it("bash completion comes from oclif's autocomplete, built in the user's cache, and completes in a real bash", async () => {
    const cwd = tempDir()
    const bash = await cliInProcess(['autocomplete', 'bash'], {cwd})
    expect([bash.code, bash.stdout]).toEqual([0, expect.stringContaining('cairn autocomplete script bash')])
    const setup = (await cliInProcess(['autocomplete', 'script', 'bash'], {cwd})).stdout
    expect(setup).toMatch(/^\nCAIRN_AC_BASH_SETUP_PATH=\S+\/bash_setup && /)
    // What bash offers at each point, as its completion function leaves it in COMPREPLY.
    const offers = (line: string) => {
      const script =
        `${setup}\nread -ra COMP_WORDS <<< "$LINE"; [[ "$LINE" == *" " ]] && COMP_WORDS+=("")\n` +
        'COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMP_LINE="$LINE"; COMP_POINT=${#LINE}; _cairn_autocomplete; printf "%s\\n" "${COMPREPLY[@]}"'
      const r = spawnSync('bash', ['-c', script], {encoding: 'utf8', env: {...sandboxEnv(cwd), LINE: line}})
      return [...new Set(r.stdout.split('\n').filter(Boolean))]
    }
    expect(offers('cairn rev')).toEqual(['review'])
    expect(offers('cairn review ')).toEqual(['approve', 'defer', 'list', 'modify', 'reject'])
    expect(offers('cairn board state --o')).toEqual(['--overview'])
    const unknown = await cliInProcess(['autocomplete', 'tcsh'], {cwd})
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      'cairn: "tcsh" is not one of bash, zsh, fish, powershell. Fix: use one of them.\n',
    ])
    const tcsh = await cliInProcess(['autocomplete'], {cwd, env: sandboxEnv(cwd, {SHELL: '/bin/tcsh'})})
    expect([tcsh.code, tcsh.stdout, tcsh.stderr]).toEqual([
      2,
      '',
      'cairn: Completion covers bash, zsh, fish and powershell, and your shell is "tcsh". Fix: name one, such as "cairn autocomplete bash".\n',
    ])
    const zsh = await cliInProcess(['autocomplete', 'zsh'], {cwd})
    expect([zsh.code, zsh.stdout]).toEqual([0, expect.stringContaining('cairn autocomplete script zsh')])
  })

  it.skipIf(!FISH)(
    `fish completion is cairn's own script, and completes in a real fish${FISH ? '' : ' (skipped: no fish on PATH; .ci/run installs it)'}`,
    async () => {
      const cwd = tempDir()
      const howto = await cliInProcess(['autocomplete', 'fish'], {cwd})
      expect([howto.code, howto.stdout]).toEqual([
        0,
        expect.stringContaining(
          'mkdir -p ~/.config/fish/completions && cairn autocomplete script fish > ~/.config/fish/completions/cairn.fish',
        ),
      ])
      const script = await cliInProcess(['autocomplete', 'script', 'fish'], {cwd})
      expect(script.code).toBe(0)
      const file = path.join(cwd, 'cairn.fish')
      fs.writeFileSync(file, script.stdout)
      fs.writeFileSync(path.join(cwd, 'cards.json'), '[]')
      // `complete -C` prints what fish offers for a command line: one "word<TAB>description" per line.
      const offers = (line: string) => {
        const r = spawnSync('fish', ['--no-config', '-c', `source ${file}; complete -C ${JSON.stringify(line)}`], {
          cwd,
          encoding: 'utf8',
          env: sandboxEnv(cwd),
        })
        expect(r.stderr).toBe('')
        return r.stdout.split('\n').filter(Boolean)
      }
      expect(offers('cairn rev')).toEqual([
        'review\tReview pending cards: list them, approve, reject, modify or defer.',
      ])
      expect(offers('cairn review ').map(l => l.split('\t')[0])).toEqual([
        'approve',
        'defer',
        'list',
        'modify',
        'reject',
      ])
      expect(offers('cairn review --format ').map(l => l.split('\t')[0])).toEqual(['json', 'markdown', 'text'])
      expect(offers('cairn board state --ov')).toEqual([
        '--overview\tAlso write the visual overview (JSON, SVGs and PNGs) into this directory.',
      ])
      expect(offers('cairn review approve --st')).toEqual([expect.stringMatching(/^--store\t/)])
      expect(offers('cairn autocomplete f')).toEqual([expect.stringMatching(/^fish\t/)])
      // A command that takes a file completes file names; one that does not offers none.
      expect(offers('cairn propose card')).toEqual(['cards.json'])
      expect(offers('cairn list card')).toEqual([])
      // Every visible command is reachable by its words.
      const config = await oclifConfig()
      for (const c of config.commands.filter(x => !x.hidden && x.id.includes(':'))) {
        const words = c.id.split(':')
        expect(
          offers(`cairn ${words.slice(0, -1).join(' ')} `).map(l => l.split('\t')[0]),
          c.id,
        ).toContain(words.at(-1))
      }
    },
  )
})
