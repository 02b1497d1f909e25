/**
 * The language cairn speaks in a store: config.yaml's knowledge_language. Every message cairn writes for a person or
 * an agent (the hooks' text, recall, lint, doctor, propose's errors, the review) is chosen from a catalog by it, with
 * one lookup: `catalog[language]`. The tables are plain objects, so the hook's path pays no file read for them.
 * What stays verbatim in every language (ids, paths, field names, commands and flags) is written into each message
 * as it is; test/unit/messages.test.ts holds every Chinese message to the protected tokens its English one has.
 */
export const STORE_LANGUAGES = ['en', 'zh-CN'] as const
export type StoreLanguage = (typeof STORE_LANGUAGES)[number]

/** One area's messages in every language: each language has every key, with the same arguments (the type checks it). */
export type Catalog<T> = {readonly [L in StoreLanguage]: T}

/** The messages of a store's language; a store with none (no store yet, an older index) speaks English. */
export const speak = <T>(catalog: Catalog<T>, language: StoreLanguage | undefined): T =>
  catalog[language ?? 'en'] ?? catalog.en

/** The card language (a card's `language:` field) a store's language writes card bodies in: headings, labels. */
export const cardLanguage = (language: StoreLanguage): 'en' | 'zh' => (language === 'zh-CN' ? 'zh' : 'en')
