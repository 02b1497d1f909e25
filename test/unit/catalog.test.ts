import {describe, expect, it} from 'vitest'
import {sizeOf} from '../../src/agents/fit.js'
import {CATALOG_HEAD, type CatalogLine, catalogWhen, renderCatalog} from '../../src/domain/catalog.js'

const entry = (id: string, over: Partial<CatalogLine> = {}): CatalogLine => ({
  id,
  title: `Title of ${id}`,
  category: 'general',
  policy: 'should',
  when: `Summary of ${id}.`,
  ...over,
})

const CARDS: CatalogLine[] = [
  entry('fix-crlf-in-lockfile', {
    title: 'Lockfiles must stay LF',
    category: 'git',
    when: 'Use when: editing package-lock.json on Windows',
  }),
  entry('backup-before-migration', {
    title: 'Back up before a migration',
    category: 'database-migrations',
    policy: 'must',
    when: 'Take a database backup first.',
  }),
  entry('flaky-login-test', {title: 'The login test is flaky!', policy: 'may'}),
]
const LISTED = [
  CATALOG_HEAD,
  '- backup-before-migration: Back up before a migration. Take a database backup first.',
  '- fix-crlf-in-lockfile: Lockfiles must stay LF. Use when: editing package-lock.json on Windows',
  '- flaky-login-test: The login test is flaky! Summary of flaky-login-test.',
].join('\n')
const BY_CATEGORY =
  'cairn catalog: 3 recall cards, too many to list, by category ' +
  '(`cairn list --category NAME` lists one; `cairn show ID` reads a card):'

describe('catalogWhen', () => {
  it('says when to use a card: its first use_when, else its summary, cut to 120 characters with an ellipsis', () => {
    expect(catalogWhen(['editing package-lock.json on Windows', 'running npm ci'], 'Lockfiles stay LF.')).toBe(
      'Use when: editing package-lock.json on Windows',
    )
    expect(catalogWhen([], 'Lockfiles stay LF.')).toBe('Lockfiles stay LF.')
    expect(catalogWhen(['  '], 'Lockfiles stay LF.')).toBe('Lockfiles stay LF.')
    const long = catalogWhen([`editing ${'x'.repeat(200)}`], '')
    expect(long).toBe(`Use when: editing ${'x'.repeat(111)}…`)
    expect([...long.slice('Use when: '.length)]).toHaveLength(120)
    // Code points, not UTF-16 units: 133 CJK characters, four of them outside the BMP, keep 119 and the ellipsis.
    const zh = catalogWhen([], `${'𠮷'.repeat(4)}${'合并冲突'.repeat(32)}。`)
    expect(zh).toBe(`${'𠮷'.repeat(4)}${'合并冲突'.repeat(28)}合并冲…`)
  })
})

describe('renderCatalog', () => {
  it('lists every card, most binding first, with how to pull one, when the whole catalog fits', () => {
    expect(CATALOG_HEAD).toBe(
      'cairn catalog (recall cards; `cairn show ID` reads one, `cairn show ID --section rule` just its rule):',
    )
    expect(renderCatalog(CARDS, 3000)).toBe(LISTED)
    expect(renderCatalog(CARDS, [...LISTED].length)).toBe(LISTED)
  })

  it('over budget, lists the categories with their counts, most cards first, and how to list one', () => {
    const cards = [...CARDS, entry('git-two', {category: 'git'}), entry('general-two')]
    const head = BY_CATEGORY.replace('3 recall cards', '5 recall cards')
    // One character short of the list: categories, ties by name.
    expect(renderCatalog(CARDS, [...LISTED].length - 1)).toBe(
      `${BY_CATEGORY}\ndatabase-migrations (1), general (1), git (1)`,
    )
    expect(renderCatalog(cards, 300)).toBe(`${head}\ngeneral (2), git (2), database-migrations (1)`)
  })

  it('cuts the category line at a category boundary with a count of the rest, or gives nothing when the heading does not fit', () => {
    const cards = [...CARDS, entry('git-two', {category: 'git'}), entry('general-two')]
    const head = BY_CATEGORY.replace('3 recall cards', '5 recall cards')
    const two = `${head}\ngeneral (2), git (2), …and 1 more`
    expect(renderCatalog(cards, [...two].length)).toBe(two)
    expect(renderCatalog(cards, [...two].length - 1)).toBe(`${head}\ngeneral (2), …and 2 more`)
    expect(renderCatalog(cards, [...head].length + 12)).toBe(`${head}\n…and 3 more`)
    expect(renderCatalog(cards, [...head].length + 11)).toBe('')
    expect(renderCatalog(cards, 0)).toBe('')
    expect(renderCatalog([], 3000)).toBe('')
  })

  it('counts characters as the hook fits a chars-capped client: a CJK character, in or out of the BMP, is one', () => {
    const zh = entry('merge-conflict-first', {title: '合并冲突必须先解决再提交', when: 'Use when: 𠮷处理合并冲突'})
    const text = `${CATALOG_HEAD}\n- merge-conflict-first: 合并冲突必须先解决再提交. Use when: 𠮷处理合并冲突`
    const budget = sizeOf(text, 'chars')
    expect(budget).toBe(text.length - 1)
    expect(renderCatalog([zh], budget)).toBe(text)
    expect(renderCatalog([zh], budget - 1)).toBe(
      `${BY_CATEGORY.replace('3 recall cards', '1 recall card')}\ngeneral (1)`,
    )
    // A title that ends a sentence (。 too) gets no added full stop.
    expect(renderCatalog([{...zh, title: '合并冲突必须先解决再提交。'}], 3000).split('\n')[1]).toBe(
      '- merge-conflict-first: 合并冲突必须先解决再提交。 Use when: 𠮷处理合并冲突',
    )
  })
})
