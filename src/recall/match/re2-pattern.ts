import {RE2JS} from 're2js'
import type {PatternCompiler, SignalPattern} from './signals.js'

/**
 * Project signal patterns (.cairn/signals.yaml) run on RE2, a linear-time engine: a pattern
 * like `(\w+\s?)+:` hangs JavaScript's backtracking RegExp for minutes on a 16-word prompt,
 * and the prompt hook has a 1.5 s deadline. re2js costs about 25 ms to load, so the prompt
 * path imports this module only when the store has project signals.
 *
 * No flags: the prompt is already NFKC and lowercase; RE2 always matches code points, as the
 * `u` flag does; `\w`, `\d` and `\b` are ASCII in both engines, so `\b` does not fire between
 * Chinese characters in either. RE2 has no lookaround and no backreferences.
 */
export const compileRe2: PatternCompiler = (source: string): SignalPattern => {
  const re = RE2JS.compile(source)
  return {
    *matches(text) {
      // test() runs on the lazy DFA, so a prompt that does not match never pays for positions.
      // Matcher.find() asks for the whole match only; matchAll() would also compute every group.
      if (!re.test(text)) return
      const m = re.matcher(text)
      while (m.find()) yield {index: m.start(), text: m.group()!}
    },
  }
}

/** Why RE2 refuses a pattern, or null when it compiles. */
export function re2Error(source: string): string | null {
  try {
    RE2JS.compile(source)
    return null
  } catch (error) {
    return (error as Error).message
  }
}
