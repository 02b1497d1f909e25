import {CATALOG_HEAD} from '../../domain/catalog.js'
import {HEADER} from './render.js'

/**
 * What cairn itself put in front of the agent, found in a prompt and taken out before matching: a client that echoes
 * hook context into the next prompt must not make cairn recall cards from its own words (DESIGN: never match cairn's
 * own text). Each block is a head line cairn writes, then its entries: lines starting with "- " or indented, at the
 * head's own indentation, as the hooks render them. A block ends at the first other line.
 */
const HEADS: readonly ((line: string) => boolean)[] = [
  // The prompt hook's light index, and session-start's catalog: their heads are these constants.
  line => line === HEADER,
  line => line === CATALOG_HEAD,
  // The catalog by category (domain/catalog.ts renderCategories).
  line => /^cairn catalog: \d+ recall cards?, too many to list, by category /.test(line),
  // pre-tool-use: the cards for the files a tool edits (app/hooks/tool.ts renderPathCards).
  line => /^cairn: cards for .+ \(read a rule with `cairn show <id> --section rule`\):$/.test(line),
  // session-start's enforced rules, its review reminder, and the stop hook's reason (app/hooks, tested against them).
  line => line.startsWith('cairn enforced rules ('),
  line => /^cairn: \d+ proposed card\(s\) wait for review: /.test(line),
  line => line.startsWith('cairn: before you finish, '),
]
/** Lines of a block that are neither entries nor indented: the stop reason's last line, the catalog's categories. */
const TAILS: readonly RegExp[] = [
  /^If none of it is worth doing now, say so in one line and stop\.$/,
  /^[^,]+ \(\d+\)(?:, [^,]+ \(\d+\))*(?:, …and \d+ more)?$/,
]

/** The prompt without the blocks cairn injected, each replaced by a line break (words on either side stay apart). */
export function withoutOwnText(prompt: string): string {
  if (!prompt.includes('cairn')) return prompt
  const lines = prompt.split(/\r?\n/)
  const out: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const indent = /^[ \t]*/.exec(lines[i])![0]
    const line = lines[i].slice(indent.length)
    if (!HEADS.some(head => head(line))) {
      out.push(lines[i])
      continue
    }
    while (i + 1 < lines.length && inBlock(lines[i + 1], indent)) i++
    out.push('')
  }
  return out.join('\n')
}

function inBlock(line: string, indent: string): boolean {
  if (!line.startsWith(indent)) return false
  const rest = line.slice(indent.length)
  return rest.startsWith('- ') || /^[ \t]+\S/.test(rest) || TAILS.some(t => t.test(rest))
}
