import {parseJsonLocated} from './board/json.js'
import {CairnError, type Issue, validationError} from './errors.js'
import {splitFrontmatter} from './frontmatter.js'
import {parseYaml} from './yaml.js'

/**
 * JSON or YAML; a Markdown file with frontmatter gives its fields plus body. A file named .json is JSON only, and
 * its syntax errors are JSON's; other text is YAML (JSON is valid YAML), and text that opens as JSON and is not
 * valid YAML either is reported as the JSON it was meant to be.
 */
export function parseStructured(text: string, label: string): {data: unknown; body?: string} {
  const parts = splitFrontmatter(text, label)
  if (parts) return {data: parseYaml(parts.yaml, label, parts.yamlStartLine - 1), body: parts.body}
  if (!text.trim())
    throw validationError([
      {
        file: label,
        field: '(content)',
        message: 'input is empty',
        fix: 'give a JSON object, an array of objects, or YAML',
      },
    ])
  if (/\.json$/i.test(label)) return {data: parseJson(text, label)}
  if (/^\s*[[{]/.test(text)) {
    try {
      return {data: JSON.parse(text)}
    } catch {
      // Not strict JSON; the YAML parser may still accept it (a flow map), else the JSON error is the useful one.
    }
    try {
      return {data: parseYaml(text, label)}
    } catch (error) {
      // A syntax error: reported as the JSON the text was meant to be. Anything else (too deep) stands as it is.
      const issues = error instanceof CairnError ? (error.data as {issues?: Issue[]} | undefined)?.issues : undefined
      if (issues?.[0]?.message.startsWith('invalid YAML')) return {data: parseJson(text, label)}
      throw error
    }
  }
  return {data: parseYaml(text, label)}
}

/** Strict JSON; a syntax error names the line and column and says how to mend it. */
export function parseJson(text: string, label: string): unknown {
  const r = parseJsonLocated(text)
  if (r.ok) return r.data
  const issue = {
    file: label,
    field: '(json)',
    message: `invalid JSON at line ${r.line}, column ${r.column}: ${r.message}`,
    fix: jsonFix(text, r),
  }
  throw validationError([issue], `Invalid JSON in ${label}`)
}

/** The usual mistakes in hand-written JSON, told by what stands where the parser stopped. */
function jsonFix(text: string, at: {line: number; column: number; message: string}): string {
  const lines = text.split('\n')
  const offset = lines.slice(0, at.line - 1).reduce((n, l) => n + l.length + 1, 0) + at.column - 1
  const found = text[offset] ?? ''
  const before = text.slice(0, offset).trimEnd().at(-1)
  if ((found === '}' || found === ']') && before === ',')
    return `remove the comma before the ${found}: JSON allows no trailing comma`
  if (found === ',' && before === ',') return 'remove the extra comma'
  if (found === "'") return 'write names and text in double quotes: JSON has no single quotes'
  if (found === '/' || found === '#') return 'remove the comment: JSON has none'
  if (at.message.includes('closing quote'))
    return 'close the text with a double quote; write a line break inside it as \\n'
  if (at.message.startsWith('expected a string') && /[A-Za-z_$]/.test(found))
    return 'put the property name in double quotes'
  if (at.message.startsWith('expected ":"')) return 'add a ":" between the property name and its value'
  if (at.message.startsWith('expected a JSON value') && /[A-Za-z_$]/.test(found))
    return 'write text in double quotes; the only bare words in JSON are true, false and null'
  if (at.message.includes('"," or'))
    return `add a comma between the two items, or close the ${at.message.includes('"}"') ? 'object with }' : 'array with ]'}`
  if (found === '' || at.message.includes('the end of the input'))
    return 'check that every { and [ is closed, and that nothing follows the last one'
  return 'correct the JSON at that position, or give the card as YAML in a .yaml file'
}
