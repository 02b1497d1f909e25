/**
 * The card skeleton `cairn propose --edit` opens: the fields a person fills in, each explained by
 * a YAML comment, in the store's language. The keys are the ones a proposal file takes, so the
 * saved text goes to `cairn propose` unchanged.
 */
export function cardTemplate(language: 'en' | 'zh-CN', layer: 'team' | 'personal'): string {
  const t = language === 'zh-CN' ? ZH : EN
  return `---
${t.intro.map(l => `# ${l}`).join('\n')}

# ${t.type}
type:
# ${t.slug}
slug:
# ${t.title}
title:
# ${t.summary}
summary:
# ${t.layer}
layer: ${layer}
# ${t.triggers}
recall:
  triggers: []
# ${t.criteria}
criteria:
  use_when: []
  ignore_when: []
---

## ${t.problem}

## ${t.rule}
`
}

const EN = {
  intro: [
    'Write the card, then save and close the editor: cairn proposes it for review.',
    'Lines starting with "#" in this header are comments. An empty or unchanged file proposes nothing.',
    'Required: type, slug, title and summary. Below the header: the problem, then the full rule (default: the summary).',
  ],
  type: 'model, decision, guideline, pitfall or process',
  slug: 'The id: 2-5 lowercase words joined by hyphens, 20-40 characters, such as deepmerge-array-replace-trap',
  title: 'A short title',
  summary: 'One sentence: when it applies, the common wrong turn, and the right action',
  layer: 'team (this repository, reviewed by the team) or personal (your own store, $CAIRN_HOME)',
  triggers: 'Phrases a colleague would type when the card applies, such as [deepMerge hook arrays, hooks vanished]',
  criteria: 'Situations the card is for, and phrases that rule it out',
  problem: 'Problem',
  rule: 'Rule',
}

const ZH = {
  intro: [
    '写好卡片后保存并关闭编辑器，cairn 会把它提交待审。',
    '头部以 "#" 开头的行是注释。文件为空或未改动时不提交任何内容。',
    '必填：type、slug、title 和 summary。头部之后：先写问题，再写完整规则（默认为 summary）。',
  ],
  type: 'model、decision、guideline、pitfall 或 process',
  slug: '卡片 id：2-5 个小写英文单词，用连字符连接，20-40 个字符，例如 deepmerge-array-replace-trap',
  title: '简短的标题',
  summary: '一句话：何时适用，常见的错误做法，以及正确做法',
  layer: 'team（本仓库，由团队评审）或 personal（你自己的库，$CAIRN_HOME）',
  triggers: '同事在需要这张卡时会输入的短语，例如 [配置合并覆盖数组, hook 丢失]',
  criteria: '这张卡适用的情形，以及排除它的短语',
  problem: '这张卡解决什么问题',
  rule: '完整规则',
}
