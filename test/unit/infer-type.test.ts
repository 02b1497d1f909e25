import {describe, expect, it} from 'vitest'
import {givenType, inferType} from '../../src/domain/import/infer-type.js'

describe('inferType', () => {
  it('reads the type from clear wording in the heading or the first sentence, else guideline', () => {
    const cases: [string, string, string][] = [
      ['Pitfalls', '- Dates from the API are naive.', 'pitfall'],
      ['Gotchas with deepMerge', 'Arrays are replaced, not merged.', 'pitfall'],
      ['Avoid global state', '- Pass dependencies in.', 'pitfall'],
      ["Don't mock the database", 'Tests run against Postgres.', 'pitfall'],
      ['Logging', 'Never print tokens, even in debug logs.', 'pitfall'],
      ['Logging', 'Do not log request bodies.', 'pitfall'],
      ['How to release', '1. Tag the commit.\n2. Push the tag.', 'process'],
      ['Deploy steps', '1) Build.\n2) Upload.', 'process'],
      ['Runbook: rotate keys', '1. Revoke the old key.\n2. Issue a new one.', 'process'],
      ['How to release', '- Tag the commit.\n- Push the tag.', 'guideline'],
      ['Database decision', 'Postgres 16 for everything.', 'decision'],
      ['Storage', 'We chose Postgres for its JSONB indexes.', 'decision'],
      ['Error handling', 'Wrap external calls in a Result type; never throw across modules.', 'guideline'],
      ['Testing', '- Run the tests before pushing.', 'guideline'],
      ['避免在循环里查询数据库', '- 先批量取出，再在内存里匹配。', 'pitfall'],
      ['不要直接改生产配置', '改动走发布流程。', 'pitfall'],
      ['禁止提交密钥', '- 密钥放在环境变量里。', 'pitfall'],
      ['发布步骤', '1. 打标签。\n2. 推送标签。', 'process'],
      ['上线流程', '1、构建镜像\n2、滚动发布', 'process'],
      ['代码风格', '- 使用 prettier 格式化。', 'guideline'],
      // A mark before the words, and numbered steps under a release, deploy or setup heading.
      ['❌ Secrets', '- Keep them in the vault.', 'pitfall'],
      ['Git', '- ❌ Never commit generated files.', 'pitfall'],
      ['Release', '1. Bump the version.\n2. Tag it.\n3. Publish.', 'process'],
      ['Local setup', '1. Install pnpm.\n2. Run pnpm i.', 'process'],
      ['Release', '- Releases happen on Tuesdays.', 'guideline'],
      ['部署', '1. 构建镜像\n2. 滚动发布', 'process'],
    ]
    expect(cases.map(([heading, body]) => inferType(heading, body))).toEqual(cases.map(c => c[2]))
  })

  it('a frontmatter type wins only when it names a card type', () => {
    expect([
      givenType({type: 'pitfall'}),
      givenType({type: 'Processes'}),
      givenType({type: 'Always'}),
      givenType({}),
    ]).toEqual(['pitfall', 'process', undefined, undefined])
  })
})
