/** A list item's marker at the start of a line: `-`, `*`, `+` or a number with `.` or `)`. */
export const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+/m

/** The first sentence or bullet of a text, as a card's summary. */
export function firstStatement(body: string): string {
  const line =
    body
      .split('\n')
      .map(l => l.replace(BULLET, '').replace(/^>\s*/, '').trim())
      .find(l => l && !/^(#|```|~~~|<!--)/.test(l)) ?? body.trim()
  const sentence = /^(.+?[.!?。！？])(\s|$)/.exec(line)?.[1] ?? line
  return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence
}
