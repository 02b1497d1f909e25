/**
 * Shell completion for fish, which oclif's autocomplete plugin does not cover: a static script made
 * from the commands' own metadata (the manifest), completing topics, commands, flags, flag values
 * and argument values. Fish autoloads it from ~/.config/fish/completions/<bin>.fish.
 */

export interface CompletionFlag {
  type: 'boolean' | 'option'
  char?: string
  options?: readonly string[]
  summary?: string
  description?: string
  hidden?: boolean
}

export interface CompletionCommand {
  id: string
  summary?: string
  description?: string
  hidden?: boolean
  flags: Record<string, CompletionFlag>
  args: Record<string, {options?: readonly string[]; description?: string}>
}

/** A fish single-quoted string: only backslash and quote are special inside. */
const q = (s: string): string => `'${s.replace(/[\\']/g, '\\$&')}'`

/** The first line of a help text, short enough for fish's pager. */
function blurb(text: string | undefined): string {
  const line = (text ?? '').split('\n')[0].trim()
  return line.length > 90 ? `${line.slice(0, 89).trimEnd()}…` : line
}

/** Arguments that name files: the shell's own file completion stays on for them. */
const takesFiles = (c: CompletionCommand): boolean => Object.keys(c.args).some(name => /file|path|dir/i.test(name))

export function fishCompletion(
  bin: string,
  version: string,
  commands: CompletionCommand[],
  topics: {name: string; description?: string; hidden?: boolean}[],
): string {
  const visible = commands.filter(c => !c.hidden).sort((a, b) => a.id.localeCompare(b.id))
  const spaced = (id: string) => id.split(':').join(' ')
  const fn = `__${bin.replace(/\W/g, '_')}`
  // Every prefix a command line can walk through: topics (also the implied ones) and commands.
  const ids = new Set<string>()
  for (const c of visible) {
    const parts = c.id.split(':')
    for (let i = 1; i <= parts.length; i++) ids.add(parts.slice(0, i).join(' '))
  }
  const topicText = new Map(
    topics.filter(t => !t.hidden && t.description).map(t => [spaced(t.name), blurb(t.description)]),
  )
  const commandText = new Map(visible.map(c => [spaced(c.id), blurb(c.summary ?? c.description)]))
  const describe = (id: string) => topicText.get(id) ?? commandText.get(id) ?? ''

  // Ids are words and spaces only, so a double-quoted fish string holds them as they are.
  const at = (id: string) => q(`${fn}_at "${id}"`)
  const out = [
    `# fish completion for ${bin} (${version}), made by "${bin} autocomplete script fish".`,
    `# Make it again after upgrading ${bin}: ${bin} autocomplete script fish > ~/.config/fish/completions/${bin}.fish`,
    '',
    `function ${fn}_command --description 'The ${bin} command typed so far, words joined by spaces'`,
    `    set -l ids ${[...ids].sort().map(q).join(' ')}`,
    '    set -l found',
    '    for word in (commandline -opc)[2..-1]',
    "        string match -q -- '-*' $word; and continue",
    '        set -l next (string join -- " " $found $word)',
    '        contains -- $next $ids; or break',
    '        set found $next',
    '    end',
    '    echo $found',
    'end',
    '',
    `function ${fn}_at --description 'True when the command typed so far is exactly the argument'`,
    `    set -l typed (${fn}_command)`,
    '    test "$typed" = "$argv"',
    'end',
    '',
    `complete -c ${bin} -f`,
    `complete -c ${bin} -n ${at('')} -s h -l help -d 'Show help'`,
    `complete -c ${bin} -n ${at('')} -s v -l version -d 'Show the version'`,
  ]
  // The next word at each level: the topics and commands under it.
  for (const id of [...ids].sort()) {
    const parts = id.split(' ')
    const parent = parts.slice(0, -1).join(' ')
    out.push(`complete -c ${bin} -n ${at(parent)} -a ${q(parts.at(-1)!)} -d ${q(describe(id))}`)
  }
  for (const c of visible) {
    const when = `-n ${at(spaced(c.id))}`
    if (takesFiles(c)) out.push(`complete -c ${bin} ${when} -F`)
    for (const arg of Object.values(c.args)) {
      if (arg.options?.length)
        out.push(`complete -c ${bin} ${when} -a ${q(arg.options.join(' '))} -d ${q(blurb(arg.description))}`)
    }
    for (const [name, flag] of Object.entries(c.flags).sort(([a], [b]) => a.localeCompare(b))) {
      if (flag.hidden) continue
      const short = flag.char ? ` -s ${flag.char}` : ''
      // A value from a fixed list (-x: no files), a free value that may be a file name (-r), or none.
      const value =
        flag.type === 'boolean' ? '' : flag.options?.length ? ` -x -a ${q(flag.options.join(' '))}` : ' -r -F'
      out.push(`complete -c ${bin} ${when}${short} -l ${name}${value} -d ${q(blurb(flag.summary ?? flag.description))}`)
    }
    out.push(`complete -c ${bin} ${when} -s h -l help -d 'Show help for this command'`)
  }
  return `${out.join('\n')}\n`
}
