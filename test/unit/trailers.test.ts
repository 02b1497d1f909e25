import {describe, expect, it} from 'vitest'
import {
  type CommitMessage,
  parseCommitMessage,
  parseTrailers,
  renderCommitMessage,
  trailerIssues,
  isTrailerLine,
} from '../../src/domain/trailers.js'
import {validationFailure} from './expect-error.js'

const base: CommitMessage = {
  op: 'propose',
  summary: 'deepmerge-array-replace-trap',
  cards: ['deepmerge-array-replace-trap'],
  actor: 'tester',
}

describe('renderCommitMessage', () => {
  it('writes subject and trailers exactly as cairn always has', () => {
    expect(renderCommitMessage(base)).toBe(
      'cairn(propose): deepmerge-array-replace-trap\n\nCairn-Op: propose\nCairn-Card: deepmerge-array-replace-trap\nCairn-Actor: tester\nCairn-Format: 1\n',
    )
  })

  it('puts the body between subject and trailers, and trailers in a fixed order', () => {
    const message = renderCommitMessage({
      op: 'modify',
      summary: 'old-card-name-here (slug)',
      body: 'Reason: covered by config-merge-rules',
      cards: ['old-card-name-here', 'new-card-name-here'],
      renames: [['old-card-name-here', 'new-card-name-here']],
      batch: 'run-20261009-1',
      actor: 'Eve Example',
    })
    expect(message).toBe(
      'cairn(modify): old-card-name-here (slug)\n\nReason: covered by config-merge-rules\n\n' +
        'Cairn-Op: modify\nCairn-Card: old-card-name-here\nCairn-Card: new-card-name-here\n' +
        'Cairn-Rename: old-card-name-here -> new-card-name-here\nCairn-Batch: run-20261009-1\n' +
        'Cairn-Actor: Eve Example\nCairn-Format: 1\n',
    )
  })

  it("names a rejected card's sources, spaces kept, one line each", () => {
    const m = {...base, op: 'reject', sources: ['import:team rules/AGENTS.md#fixtures']}
    expect(renderCommitMessage(m)).toBe(
      'cairn(reject): deepmerge-array-replace-trap\n\nCairn-Op: reject\nCairn-Card: deepmerge-array-replace-trap\n' +
        'Cairn-Source: import:team rules/AGENTS.md#fixtures\nCairn-Actor: tester\nCairn-Format: 1\n',
    )
    expect(['import:a b', 'import:a\tb', 'import:a\n', ' import:a'].map(isTrailerLine)).toEqual([
      true,
      false,
      false,
      false,
    ])
    expect(trailerIssues({...m, sources: ['import:a\nCairn-Op: approve', ' x', '']}).map(i => i.message)).toEqual([
      '"import:a\\nCairn-Op: approve" is not one trimmed line',
      '" x" is not one trimmed line',
      'is empty',
    ])
  })

  it('collapses whitespace, newlines included, in the subject', () => {
    const message = renderCommitMessage({op: 'init', summary: 'initialise\n\nthe   project\tstore', actor: 'tester'})
    expect(message).toBe(
      'cairn(init): initialise the project store\n\nCairn-Op: init\nCairn-Actor: tester\nCairn-Format: 1\n',
    )
  })
})

describe('parsing', () => {
  it('reads back everything it wrote', () => {
    const m: CommitMessage = {
      op: 'restore',
      summary: '2 cards from archive/20261129T100000Z',
      body: 'A body\nwith lines\n\nand a second paragraph: Cairn-Op: forged',
      cards: ['first-card-name-here', 'second-card-name-here'],
      renames: [['first-card-name-here', 'restored-first-card-name']],
      batch: 'batch-7',
      actor: 'bot for Eve',
    }
    expect(parseCommitMessage(renderCommitMessage(m))).toEqual({
      subject: 'cairn(restore): 2 cards from archive/20261129T100000Z',
      body:
        'A body\nwith lines\n\nand a second paragraph: Cairn-Op: forged\n\nCairn-Op: restore\n' +
        'Cairn-Card: first-card-name-here\nCairn-Card: second-card-name-here\n' +
        'Cairn-Rename: first-card-name-here -> restored-first-card-name\nCairn-Batch: batch-7\n' +
        'Cairn-Actor: bot for Eve\nCairn-Format: 1',
      trailers: {
        op: 'restore',
        cards: ['first-card-name-here', 'second-card-name-here'],
        renames: [['first-card-name-here', 'restored-first-card-name']],
        batch: 'batch-7',
        actor: 'bot for Eve',
        format: '1',
      },
    })
  })

  it('reads only the last paragraph, and only a message with Cairn-Format', () => {
    expect(
      parseTrailers('fix: something\n\nCairn-Op: approve\nCairn-Format: 1\n\nSigned-off-by: a <a@b>\n'),
    ).toBeUndefined()
    expect(parseTrailers('fix: something\n\nCairn-Op: approve\nCairn-Card: x\n')).toBeUndefined()
    expect(parseCommitMessage('an ordinary commit\n')).toBeUndefined()
  })
})

describe('forged values', () => {
  const forged = 'eve\nCairn-Card: x\nCairn-Op: approve'

  it('refuses the forged actor of the issue, naming the trailer and the fix', () => {
    const e = validationFailure(() => renderCommitMessage({...base, actor: forged}))
    expect(e.exitCode).toBe(6)
    expect(e.message).toBe(
      'The commit would carry invalid Cairn-* trailers:\n' +
        '  - Cairn-Actor: "eve\\nCairn-Card: x\\nCairn-Op: approve" contains a newline or control character. ' +
        'Fix: set CAIRN_ACTOR (or git config user.name, or --actor) to one line of printable text.',
    )
  })

  it('refuses a newline, a control character or an empty value in every trailer', () => {
    const bad = ['a\nb', 'a\rb', 'a\u0000b', 'a\u001bb', 'a\u2028b', '']
    for (const value of bad) {
      const cases: [string, CommitMessage][] = [
        ['Cairn-Op', {...base, op: value}],
        ['Cairn-Card', {...base, cards: ['fine-card-id', value]}],
        ['Cairn-Rename', {...base, renames: [['fine-card-id', value]]}],
        ['Cairn-Rename', {...base, renames: [[value, 'fine-card-id']]}],
        ['Cairn-Batch', {...base, batch: value}],
        ['Cairn-Actor', {...base, actor: value}],
      ]
      for (const [field, m] of cases) {
        expect(
          trailerIssues(m).map(i => i.field),
          `${field} ${JSON.stringify(value)}`,
        ).toEqual([field])
        validationFailure(() => renderCommitMessage(m))
      }
    }
  })

  it('refuses whitespace inside ids and around the actor, and lists every problem at once', () => {
    expect(trailerIssues({...base, cards: ['two words']}).map(i => i.field)).toEqual(['Cairn-Card'])
    expect(trailerIssues({...base, actor: ' eve'}).map(i => i.message)).toEqual([
      '" eve" starts or ends with whitespace',
    ])
    expect(trailerIssues({...base, actor: '   '}).map(i => i.message)).toEqual(['is empty'])
    expect(trailerIssues({op: 'a b', cards: ['x\n'], batch: '', actor: 'e\tve'}).map(i => i.field)).toEqual([
      'Cairn-Op',
      'Cairn-Card',
      'Cairn-Batch',
      'Cairn-Actor',
    ])
    expect(trailerIssues({...base, actor: 'Ève Exâmple (bot for eve)'})).toEqual([])
  })
})
