import {describe, expect, it} from 'vitest'
import {renderComment} from '../../src/domain/ci/comment.js'

const A = 'a'.repeat(40)
const B = 'b'.repeat(40)

const section = (comment: string) => comment.slice(comment.indexOf('### '), comment.lastIndexOf('\n\n'))

describe('the review comment: org pin changes', () => {
  it('says when the cards cannot be listed, and when none changed', () => {
    const comment = renderComment({
      language: 'en',
      problems: [],
      entries: [],
      org: [
        {name: 'acme', ref: 'main', from: A, to: B, changes: null},
        {name: 'platform', ref: 'v2', from: B, to: A, changes: {added: [], changed: [], removed: []}},
      ],
    })
    expect(section(comment).split('\n').slice(4)).toEqual([
      '- `acme`: `aaaaaaaaaaaa` → `bbbbbbbbbbbb` (`main`)',
      '  - the cards cannot be listed: the cache has not got both commits, and the remote could not give them',
      '- `platform`: `bbbbbbbbbbbb` → `aaaaaaaaaaaa` (`v2`)',
      '  - no active card changed',
    ])
  })

  it('shows at most 30 ids a list, then how many more, in code spans', () => {
    const ids = Array.from({length: 32}, (_, i) => `org-card-number-${String(i).padStart(4, '0')}`)
    const comment = renderComment({
      language: 'zh-CN',
      problems: [],
      entries: [],
      org: [{name: 'acme', ref: 'main', from: null, to: B, changes: {added: ids, changed: [], removed: []}}],
    })
    const lines = section(comment).split('\n').slice(4)
    expect(lines[0]).toBe('- `acme`：订阅于 `bbbbbbbbbbbb`（`main`）')
    expect(lines[1]).toBe(
      `  - 新增：${ids
        .slice(0, 30)
        .map(id => `\`${id}\``)
        .join(', ')}, ……另有 2 张`,
    )
    expect(lines).toHaveLength(2)
  })
})
