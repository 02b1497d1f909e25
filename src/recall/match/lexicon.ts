import {z} from '../../domain/vendor/zod.js'
import {validationError} from '../../domain/errors.js'
import {zodIssues} from '../../domain/issues.js'
import {parseYaml} from '../../domain/yaml.js'

/**
 * The bilingual lexicon recall expands cards and prompts with: a zh→en dictionary (data/lexicon/cedict.tsv) and
 * concept groups, each a set of terms that name the same thing in English and Chinese (data/lexicon/glossary.yaml,
 * and a team's own in .cairn/lexicon.yaml).
 */
export interface LexiconGroup {
  en: string[]
  zh: string[]
  note?: string
}

/** The dictionary file: "# ..." comment lines, then "<headword>\t<gloss>|<gloss>..." per line. */
export function parseCedict(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (!line || line.startsWith('#')) continue
    const tab = line.indexOf('\t')
    if (tab <= 0) continue
    out.set(line.slice(0, tab), line.slice(tab + 1).split('|'))
  }
  return out
}

const TERM_MAX = 80
const term = z
  .string()
  .trim()
  .refine(t => t.length > 0, {message: 'must not be empty', params: {fix: 'write the term, or remove the empty entry'}})
  .refine(t => t.length <= TERM_MAX, {
    message: `is longer than ${TERM_MAX} characters`,
    params: {fix: 'use a shorter term'},
  })
  .refine(t => !/[|\t]/.test(t), {message: 'contains "|" or a tab', params: {fix: 'remove the "|" or tab'}})
  .refine(t => !/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/.test(t), {
    message: 'contains a control character',
    params: {fix: 'remove the control character (a line break, for example)'},
  })

const groupSchema = z
  .strictObject({
    en: z.array(term).default([]),
    zh: z.array(term).default([]),
    note: z.string().trim().min(1).optional(),
  })
  .refine(g => g.en.length + g.zh.length >= 2, {
    message: 'needs at least two terms in all',
    params: {
      fix: 'list the terms that mean the same, in en and zh (e.g. en: [rollback], zh: [回滚]), or remove the group',
    },
  })

export const lexiconFileSchema = z.strictObject({terms: z.array(groupSchema)})

/** A team lexicon file's groups; bad YAML, an unknown field or a bad term is a validation error naming the field. */
export function parseLexiconFile(text: string, file: string): LexiconGroup[] {
  // A file of comments only is an empty lexicon.
  const result = lexiconFileSchema.safeParse(parseYaml(text, file) ?? {terms: []}, {reportInput: true})
  if (!result.success) throw validationError(zodIssues(result.error, file), `Invalid lexicon file ${file}`)
  return result.data.terms.map(g => (g.note === undefined ? {en: g.en, zh: g.zh} : {en: g.en, zh: g.zh, note: g.note}))
}
