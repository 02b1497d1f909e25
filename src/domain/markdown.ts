/**
 * Untrusted text (card fields, file names, settings a pull request wrote) in markdown that cairn posts
 * on GitHub. Backslash escapes cannot stop everything there: GitHub links bare URLs, www. names and
 * e-mail addresses, and notifies @mentions, in any text outside code. Inside a code span nothing is
 * rendered or linked, so card text goes in one.
 */

const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/g

/**
 * One inline code span holding text as it is: no link, image, HTML, mention or emphasis inside can
 * render, and a line break is folded so the text cannot start a block of its own. The fence is one
 * backtick longer than the longest run of backticks in the text, so the text cannot close it.
 */
export function codeSpan(text: string): string {
  const flat = text.replace(LINE_BREAK, ' ')
  if (flat === '') return ''
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map(run => run.length))
  const fence = '`'.repeat(longest + 1)
  // CommonMark strips one space from each end when both ends have one: a pad keeps a backtick at
  // either end off the fence, and keeps spaces the text itself has at both ends.
  const spaced = flat.startsWith(' ') && flat.endsWith(' ') && /[^ ]/.test(flat)
  const pad = flat.startsWith('`') || flat.endsWith('`') || spaced ? ' ' : ''
  return `${fence}${pad}${flat}${pad}${fence}`
}

/** A word such as a card id, type or policy is shown as it is; anything else goes in a code span. */
export function inert(text: string): string {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/i.test(text) ? text : codeSpan(text)
}

/**
 * cairn's own sentences made inert where a code span would not read well (the review's notes around an
 * id): backslash escapes (CommonMark) keep raw HTML, comments and entities literal, a zero-width joiner
 * after "@" stops GitHub notifying a user or team, and line breaks are folded so a field cannot start a
 * heading or an HTML block of its own. Escapes do not stop GitHub linking a bare URL: untrusted text
 * goes in a codeSpan.
 */
export function markdownText(text: string): string {
  return text
    .replace(LINE_BREAK, ' ')
    .replace(/[\\`<>&]/g, '\\$&')
    .replace(/@(?=[\p{L}\p{N}])/gu, '@\u200D')
}
