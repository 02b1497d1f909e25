import {validateFrontmatter} from '../../src/domain/card/format.js'
import {statsOf} from '../../src/recall/match/bm25.js'
import {buildDoc, type CardDoc} from '../../src/recall/match/doc.js'
import {matchCards} from '../../src/recall/match/match.js'
import {analysePrompt} from '../../src/recall/match/prompt.js'
import {compileRe2} from '../../src/recall/match/re2-pattern.js'
import {buildRegistry, type Signal} from '../../src/recall/match/signals.js'

/** An active card as the matcher sees it, from a few fields. */
export function doc(input: Record<string, any> = {}, where: {store?: 'project' | 'personal'} = {}): CardDoc {
  const {rule, ...over} = input
  const fm = validateFrontmatter({
    schema: 'cairn/card@1',
    type: 'pitfall',
    status: 'active',
    title: 'A card',
    summary: 'A summary.',
    created: '2026-01-01T00:00:00Z',
    updated: '2026-01-01T00:00:00Z',
    scope: {level: 'global'},
    ...over,
    id: over.id ?? 'sample-card-for-recall',
  })
  return buildDoc({...fm, body: ''}, rule ?? 'the full rule text', {
    store: where.store ?? 'project',
    path: `.cairn/cards/pitfall/${fm.id}.md`,
  })
}

export function run(
  docs: CardDoc[],
  prompt: string,
  options: {projectKey?: string | null; paths?: string[]; maxCards?: number; signals?: Signal[]} = {},
) {
  const registry = buildRegistry(options.signals ?? [], compileRe2)
  const pv = analysePrompt(prompt, registry, options.paths ?? [])
  return matchCards(docs, pv, statsOf(docs), {
    registry,
    projectKey: options.projectKey ?? null,
    maxCards: options.maxCards ?? 4,
  })
}

export const ids = (r: ReturnType<typeof run>): string[] => r.selected.map(c => c.doc.id)
export const gate = (r: ReturnType<typeof run>, id: string, name: string) =>
  r.considered.find(c => c.doc.id === id)?.gates.find(g => g.gate === name)
