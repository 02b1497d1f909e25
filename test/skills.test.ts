import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {splitFrontmatter} from '../src/domain/frontmatter.js'
import {parseYaml} from '../src/domain/yaml.js'
import {ROOT} from './helpers.js'

/** The skills install copies into agents (issue 9, section 5): each must exist in both languages. */
const LANGS = ['en', 'zh-CN']
const SKILLS = ['cairn-archive', 'cairn-board', 'cairn-bootstrap', 'cairn-enrich', 'cairn-recall', 'cairn-review']
const skillFile = (lang: string, name: string): string => path.join(ROOT, 'templates', 'skills', lang, name, 'SKILL.md')

/** oclif adds these to every command. */
const GLOBAL_FLAGS = ['help']
const GLOBAL_CHARS = ['h']

interface CommandFlags {
  flags: Set<string>
  chars: Set<string>
}

interface ManifestFlag {
  char?: string
  allowNo?: boolean
}

function loadCommands(): Map<string, CommandFlags> {
  const file = path.join(ROOT, 'oclif.manifest.json')
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`)
  type Manifest = {commands: Record<string, {flags: Record<string, ManifestFlag>}>}
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest
  const commands = new Map<string, CommandFlags>()
  for (const [id, command] of Object.entries(manifest.commands)) {
    const flags = new Set<string>()
    const chars = new Set<string>()
    for (const [name, flag] of Object.entries(command.flags)) {
      flags.add(name)
      if (flag.allowNo) flags.add(`no-${name}`)
      if (flag.char) chars.add(flag.char)
    }
    commands.set(id, {flags, chars})
  }
  return commands
}

/** Lines of code in a Markdown text: every line of a fenced block, and every inline code span. */
function codeLines(markdown: string): {line: number; code: string}[] {
  const out: {line: number; code: string}[] = []
  let fence: string | null = null
  markdown.split('\n').forEach((text, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1]
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null
      else out.push({line: i + 1, code: text})
    } else if (marker) fence = marker
    else for (const m of text.matchAll(/(`+)(.+?)\1/g)) out.push({line: i + 1, code: m[2]})
  })
  return out
}

const OPERATORS = new Set(['|', '||', '&', '&&', ';', '(', ')', '<', '>', '>>', '$('])

/** Shell words of one line: quotes kept together, `<placeholder>` a word, operators apart, `#` a comment. */
function shellWords(code: string): string[] {
  const words: string[] = []
  // A word first, so `<id>` is a placeholder; a `<` followed by a space is a redirection.
  const re = /\s*(?:(#.*$)|((?:<[^\s<>]+>|"[^"]*"|'[^']*'|[^\s|&;()<>"'])+)|(\$\(|&&|\|\||>>|[|&;()<>]))/y
  let m: RegExpExecArray | null
  while (re.lastIndex < code.length && (m = re.exec(code))) {
    if (m[1] !== undefined) break
    if (m[2] !== undefined) words.push(m[2].replace(/^(["'])(.*)\1$/, '$2'))
    else if (m[3] !== undefined) words.push(m[3])
    else break
  }
  return words
}

/** Each `cairn ...` invocation in the code: the words after `cairn`, up to the next operator. */
function invocations(code: string): string[][] {
  const words = shellWords(code)
  const out: string[][] = []
  let start = true
  for (let i = 0; i < words.length; i++) {
    const w = words[i]
    if (OPERATORS.has(w)) {
      start = true
      continue
    }
    if (start && w === '$') continue
    if (start && w === 'cairn') {
      let j = i + 1
      while (j < words.length && !OPERATORS.has(words[j])) j++
      // "[--flag]" is usage notation for an optional flag.
      out.push(words.slice(i + 1, j).map(w => w.replace(/^\[+|\]+$/g, '')))
      i = j - 1
    }
    start = false
  }
  return out
}

/** The command an invocation names: the longest run of its leading words (before any flag) that is one. */
function commandId(argv: string[], commands: Map<string, CommandFlags>): string | undefined {
  const firstFlag = argv.findIndex(w => w.startsWith('-'))
  const head = argv.slice(0, firstFlag < 0 ? argv.length : firstFlag)
  for (let n = Math.min(head.length, 3); n > 0; n--) {
    const id = head.slice(0, n).join(':')
    if (commands.has(id)) return id
  }
  return undefined
}

/** What is wrong with one invocation (unknown command, unknown flag), or nothing. */
function checkInvocation(argv: string[], commands: Map<string, CommandFlags>): string[] {
  if (argv.length === 0) return []
  const shown = `cairn ${argv.join(' ')}`
  const id = commandId(argv, commands)
  if (!id) return [`unknown command in "${shown}"`]
  const {flags, chars} = commands.get(id)!
  const problems: string[] = []
  for (const w of argv) {
    if (w === '--') break
    const long = /^--([^=]+)/.exec(w)?.[1]
    if (long && !flags.has(long) && !GLOBAL_FLAGS.includes(long)) {
      problems.push(`unknown flag --${long} for "${id}" in "${shown}"`)
    }
    for (const c of /^-([A-Za-z]+)$/.exec(w)?.[1] ?? '') {
      if (!chars.has(c) && !GLOBAL_CHARS.includes(c)) problems.push(`unknown flag -${c} for "${id}" in "${shown}"`)
    }
  }
  return problems
}

/** Every problem in a Markdown text's cairn invocations, as "line N: problem". */
function problemsIn(markdown: string, commands: Map<string, CommandFlags>): string[] {
  return codeLines(markdown).flatMap(({line, code}) =>
    invocations(code).flatMap(argv => checkInvocation(argv, commands).map(p => `line ${line}: ${p}`)),
  )
}

/** The commands and flags a text uses ("id", "id --flag"), so two translations can be compared. */
function signature(markdown: string, commands: Map<string, CommandFlags>): string[] {
  const used = new Set<string>()
  for (const {code} of codeLines(markdown)) {
    for (const argv of invocations(code)) {
      const id = commandId(argv, commands)
      if (!id) continue
      used.add(id)
      for (const w of argv) if (w.startsWith('--')) used.add(`${id} ${w.split('=')[0]}`)
    }
  }
  return [...used].sort()
}

const commands = loadCommands()

describe('skills', () => {
  for (const lang of LANGS) {
    it(`${lang}: exactly the six skills`, () => {
      const dirs = fs.readdirSync(path.join(ROOT, 'templates', 'skills', lang)).sort()
      expect(dirs).toEqual(SKILLS)
    })

    for (const name of SKILLS) {
      it(`${lang}/${name}: frontmatter names the skill and the situation`, () => {
        const file = skillFile(lang, name)
        const parts = splitFrontmatter(fs.readFileSync(file, 'utf8'), file)
        expect(parts, `${file} has no frontmatter`).not.toBeNull()
        const fm = parseYaml(parts!.yaml, file, 1) as Record<string, unknown>
        expect(Object.keys(fm).sort()).toEqual(['description', 'name'])
        expect(fm.name).toBe(name)
        expect(typeof fm.description).toBe('string')
        const description = (fm.description as string).trim()
        expect(description.length).toBeGreaterThan(0)
        expect(description.length).toBeLessThanOrEqual(1024)
        expect(parts!.body.split('\n').length).toBeGreaterThan(40)
      })

      it(`${lang}/${name}: every cairn command and flag exists`, () => {
        const text = fs.readFileSync(skillFile(lang, name), 'utf8')
        expect(problemsIn(text, commands)).toEqual([])
        expect(signature(text, commands).length).toBeGreaterThan(0)
      })
    }
  }

  for (const name of SKILLS) {
    it(`${name}: the Chinese skill uses the same commands and flags as the English one`, () => {
      const [en, zh] = LANGS.map(lang => signature(fs.readFileSync(skillFile(lang, name), 'utf8'), commands))
      expect(zh).toEqual(en)
    })
  }
})

describe('the command check', () => {
  it('reports an unknown command, an unknown flag and an unknown short flag', () => {
    const text = [
      'Run `cairn frobnicate --x` first.',
      '```sh',
      'cairn recall "some task" --path src/a.ts --bogus   # a comment with --ignored',
      'cat b.json | cairn board commit - --actor me && cairn show deepmerge-array-replace-trap -z',
      'cairn show <id> --sektion rule',
      '```',
    ].join('\n')
    expect(problemsIn(text, commands)).toEqual([
      'line 1: unknown command in "cairn frobnicate --x"',
      'line 3: unknown flag --bogus for "recall" in "cairn recall some task --path src/a.ts --bogus"',
      'line 4: unknown flag -z for "show" in "cairn show deepmerge-array-replace-trap -z"',
      'line 5: unknown flag --sektion for "show" in "cairn show <id> --sektion rule"',
    ])
  })

  it('accepts real commands, placeholders, quoted text and the commands being added in issue 9', () => {
    const text = [
      '`cairn show <id> --section rule`, `cairn review approve --all --store personal`,',
      '`cairn board annotate visa "a <note> | not a pipe" --batch-id note-1 --now <ts>`,',
      '`cairn hook stop --agent claude`, `cairn install --agent codex --scope user --lang zh-CN --dry-run`,',
      '`cairn export agents-md --file AGENTS.md --json`, `cairn propose - < cards.json`, `cairn review --help`.',
      'A path is not a command: `.cairn/.local/digests/`, nor is `echo cairn --nope`.',
    ].join('\n')
    expect(problemsIn(text, commands)).toEqual([])
  })

  it("checks a not-yet-built command's flags against its allow-list", () => {
    expect(problemsIn('`cairn uninstall --agent claude --lang en`', commands)).toEqual([
      'line 1: unknown flag --lang for "uninstall" in "cairn uninstall --agent claude --lang en"',
    ])
  })
})
