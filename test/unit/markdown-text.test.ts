import {describe, expect, it} from 'vitest'
import {textLines} from '../../src/domain/markdown-blocks.js'

/**
 * textLines: the lines a reader of the rendered comment sees as its text, where a /cairn command counts.
 * Each case is a comment and the lines it gives, as CommonMark (spec 0.31, and GitHub's cmark-gfm) reads it.
 */
const CMD = '/cairn approve all'

const TEXT: [string, string, string[]][] = [
  [
    'a paragraph, its continuation line indented or not',
    `Looks right.\n   ${CMD}\n${CMD}`,
    ['Looks right.', `   ${CMD}`, CMD],
  ],
  [
    'a continuation line indented 4 (indented code cannot interrupt a paragraph)',
    `Looks right.\n    ${CMD}`,
    ['Looks right.', `    ${CMD}`],
  ],
  ['after a closed fence', `\`\`\`\ncode\n\`\`\`\n${CMD}`, [CMD]],
  ['after a fence closed by a longer one', `\`\`\`\ncode\n\`\`\`\`\`\n${CMD}`, [CMD]],
  ['after a block quote and a blank line', `> Should I?\n\n${CMD}`, [CMD]],
  ['after an HTML comment on one line', `<!-- note -->\n${CMD}`, [CMD]],
  ['after a whole HTML comment on lines of its own', `<!--\nreviewed in the call\n-->\n\n${CMD}`, [CMD]],
  ['after a line with pipes that is no table', `a | b\n\n${CMD}`, ['a | b', CMD]],
  ["a list item's continuation line", `- the title is long\n  ${CMD}`, ['- the title is long', `  ${CMD}`]],
  ['a lazy line after a list item', `Notes:\n- the title\n${CMD}`, ['Notes:', '- the title', CMD]],
  ['after a heading', `# Review\n${CMD}`, [CMD]],
  [
    'after a link and inline code that close on their line',
    `See [the guide](https://x.example "t") and \`x\`\n${CMD}`,
    ['See [the guide](https://x.example "t") and `x`', CMD],
  ],
  ['after an autolink', `<https://x.example>\n${CMD}`, ['<https://x.example>', CMD]],
  ['an unclosed backtick is text', `a \` b\n${CMD}`, ['a ` b', CMD]],
  ['an info string with a backtick opens no backtick fence', `\`\`\` a\`b\n${CMD}`, ['``` a`b', CMD]],
  ['a list that cannot interrupt a paragraph (starts at 2)', `para\n2. x\n${CMD}`, ['para', '2. x', CMD]],
  ['an empty list item ends at a blank line', `-\n\n  ${CMD}`, [`  ${CMD}`]],
  ['CRLF line ends', `Looks right.\r\n${CMD}\r\n`, ['Looks right.', CMD]],
]

const HIDDEN: [string, string, string[]][] = [
  ['a fenced code block', `To approve, comment:\n\`\`\`\n${CMD}\n\`\`\``, ['To approve, comment:']],
  ['a tilde fence', `~~~\n${CMD}\n~~~`, []],
  ['an unclosed fence', `\`\`\`sh\n\n${CMD}`, []],
  ['a fence whose closer is too short', `\`\`\`\`\n\`\`\`\n${CMD}\n\`\`\`\``, []],
  ['a fence whose closer is indented 4', `\`\`\`\n    \`\`\`\n${CMD}\n\`\`\``, []],
  ['a fence whose closer follows a no-break space', `\`\`\`\n\u00A0\`\`\`\n${CMD}\n\`\`\``, []],
  ['a fence whose info string holds U+2028', `\`\`\`\u2028\n${CMD}\n\`\`\``, []],
  ['an indented fence in a list item', `- a\n  \`\`\`\n  ${CMD}\n  \`\`\``, ['- a']],
  ['a fence indented 4 in a list item', `- a\n    \`\`\`\n  ${CMD}`, ['- a']],
  ['an indented code block after a blank line', `Comment:\n\n    ${CMD}`, ['Comment:']],
  ['an indented code block at the start', `    ${CMD}`, []],
  ['a tab-indented code block', `\t${CMD}`, []],
  ['indented code in a list item', `- a\n\n      ${CMD}`, ['- a']],
  ['an HTML comment spanning lines', `<!--\n${CMD}\n-->`, []],
  ['an HTML comment after text', `Thanks! <!--\n${CMD}\n-->`, ['Thanks! <!--']],
  ['a line after raw HTML in its paragraph', `Thanks <details>\n${CMD}\n</details>`, ['Thanks <details>']],
  ['an HTML block', `<details>\n${CMD}\n</details>`, []],
  ['an HTML block of one tag', `<span>\n${CMD}`, []],
  ['a processing instruction', `<?\n${CMD}\n?>`, []],
  ["a tag's attribute", `a <b title="\n${CMD}\n">`, ['a <b title="']],
  ['a block quote', `> ${CMD}`, []],
  ['a lazy line of a block quote', `> Should I?\n${CMD}`, []],
  ['a lazy line of a quote in a list item', `- > a\n  ${CMD}`, []],
  ['a quote inside a list item', `- a\n  > ${CMD}`, ['- a']],
  ['a multi-line code span', `\`x\n${CMD}\n\``, ['`x']],
  ['a code span whose opener a link destination hides', `[a](b\`c)\n\`\n${CMD}\n\``, ['[a](b`c)', '`']],
  ['an image description', `![\n${CMD}\n](x.png)`, ['![']],
  ['a link title', `[a](b "x\n${CMD}\n")`, ['[a](b "x']],
  ['a link destination on its own line', `[a](\n${CMD.split(' ')[0]}\n)`, ['[a](']],
  ['a link reference definition', `[x]: /u "a\n${CMD}\n"`, []],
  ['a reference link label', `[a][\n${CMD}\n]`, ['[a][']],
  ['brackets in brackets', `[a [b] c\n${CMD}\n](u)`, ['[a [b] c']],
  ['struck through', `~~a\n${CMD}~~`, ['~~a']],
  ['inline math', `cost $x\n${CMD}$`, ['cost $x']],
]

/** What a browser keeps open past its block, or what this reading does not follow: no line after it counts. */
const ENDED: [string, string, string[]][] = [
  ['a comment that a comment on its line leaves open', `<!-- note --><!--\n\n${CMD}`, []],
  ['a comment opened in a quote', `> <!--\n${CMD}`, []],
  ['a comment opened in a list item', `- <!--\n- x\n${CMD}`, []],
  ['a comment in an HTML block', `<div>\n<!--\n\n${CMD}`, []],
  ['a declaration in a quote', `> <!a\n${CMD}`, []],
  ['a <details> block, its text after a blank line', `<details>\n<summary>x</summary>\n\n${CMD}\n\n</details>`, []],
  ['a <details> opened in a paragraph', `Thanks <details>\n\n${CMD}`, ['Thanks <details>']],
  ['a <blockquote> element', `<blockquote>\n\n${CMD}`, []],
  ['a <code> element opened in a paragraph', `a <code>\n\n${CMD}`, ['a <code>']],
  ['an element after a comment on its line', `<!-- n --> <details>\n\n${CMD}`, []],
  ['an attribute left open', `<div title="\n\n${CMD}\n\n">`, []],
  ['a footnote definition interrupting a paragraph', `Thanks\n[^1]: n\n${CMD}`, ['Thanks']],
  ['a tag GitHub reads inline, in a quote', `> a\n> <meta>\n${CMD}`, []],
  ['a tag of spec 0.31 only, in a quote', `> a\n> <search>\n${CMD}`, []],
  ['a link reference definition and an underline, in a quote', `> [a]: /u\n> ---\n${CMD}`, []],
  ['a table, then an indented line', `a | b\n--|--\n    ${CMD}`, []],
  ["a table's header row", `${CMD} | b\n--|--`, []],
  ['a math block', `$$\n${CMD}\n$$`, []],
]

describe('textLines', () => {
  it('gives the lines of paragraphs outside quotes, as written', () => {
    expect(TEXT.map(([name, md]) => [name, textLines(md)])).toEqual(TEXT.map(([name, , want]) => [name, want]))
  })

  it('leaves out lines in code, HTML, quotes and the hidden parts of links and images', () => {
    expect(HIDDEN.map(([name, md]) => [name, textLines(md)])).toEqual(HIDDEN.map(([name, , want]) => [name, want]))
  })

  it('reads nothing after raw HTML that is not a whole comment, a footnote, a table, math or a link definition', () => {
    expect(ENDED.map(([name, md]) => [name, textLines(md)])).toEqual(ENDED.map(([name, , want]) => [name, want]))
  })

  it('reads nothing in containers nested past 32 levels, and stays linear on hostile input', () => {
    expect(textLines(`${'> '.repeat(40)}a\n\n${CMD}`)).toEqual([])
    expect(textLines(`${'> '.repeat(20)}a\n\n${CMD}`)).toEqual([CMD])
    // Each would take quadratic time if every `<`, backtick or bracket searched the rest of the text again.
    // Unclosed, none is HTML (GitHub shows each as text), but for the one that holds a whole tag.
    for (const hostile of ['<!--', '<?', '<a b="', '<!A', '[a]( ', '`x``', '![a](<b>']) {
      const last = hostile.includes('<b>') ? `x ${hostile.repeat(20_000)}` : CMD
      expect([hostile, textLines(`x ${hostile.repeat(20_000)}\n\n${CMD}`).at(-1) === last]).toEqual([hostile, true])
    }
  })
})
