/** Word lists for deriveTriggers: where key phrases break, and single words too generic to be a trigger. */

const words = (s: string): ReadonlySet<string> => new Set(s.trim().split(/\s+/))

/** English function words and rule verbs ("use", "avoid", "never"): a key phrase never spans one. */
export const STOP_EN = words(`
  a about above after again against all also always am an and any are aren't as at be because been before being
  below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't done down during
  each either else ensure etc e.g every few for from further had hadn't has hasn't have haven't having he her here
  hers him his how however i i.e if in instead into is isn't it it's its itself just least less let like may
  might more most must mustn't my neither never no nor not now of off often on once one only onto or other otherwise
  our ours out over own per please prefer rather really same shall she should shouldn't since so some such than that
  that's the their theirs them then there these they this those though through thus to too under unless until up
  upon us use used uses using usually very via vs was wasn't we were weren't what when whenever where whether which
  while who whom whose why will with within without won't would wouldn't yet you your yours avoid remember always
  instead sure whatever whichever also anything everything nothing something someone anyone able
`)

/** Generic software words: too common to stand alone as a trigger (inside a longer phrase they are fine). */
export const GENERIC_EN = words(`
  file files code codes test tests testing use make makes run runs running change changes changed fix fixes fixed
  update updates updated add adds added value values data thing things issue issues way ways new case cases work works
  working set sets get gets call calls check checks need needs first time times part parts place user users system
  problem problems error errors line lines name names type types function functions method methods command commands
  output input result results string strings number numbers option options default config project projects step steps
  version versions right wrong thing stuff first second other should would could before after always never every
  still where which these those there their about using while whole single multiple certain common simple proper
  correct correctly properly instead really later early again write writes written read reads create creates created
  remove removes removed delete deletes deleted start starts stop stops build builds built check checked
  handle handles handled return returns setting settings state states point points reason reasons
`)

/** Chinese function words, modal and rule verbs: ICU word segments that break a key phrase. */
export const STOP_ZH = words(`
  的 地 得 了 着 过 是 在 和 与 及 以及 或 或者 也 都 就 才 把 被 将 让 给 对 向 从 到 为 以 于 而 并 并且 但 但是 却
  要 要用 先 再 又 还 必须 需要 应该 应当 不要 不能 不可 不得 别 勿 禁止 务必 一定 总是 始终 永远 请 可以 可 能 会 能够
  时 时候 之前 之后 以前 以后 前 后 等 等等 中 里 内 上 下 之 其 该 此 这 那 这个 那个 这些 那些 这样 那样 一个 每 每个 每次 每当 个 些
  如果 若 因为 所以 因此 然后 否则 然而 如何 怎么 怎样 什么 为什么 哪 哪些 吗 呢 吧 啊 我 我们 你 你们 他 她 它 他们 自己
  用 使用 通过 按 按照 根据 进行 有 没有 掉 不 没 很 更 最 太 只 只有 仅 已经 正在 所有 任何 一些 一起 同时 直接 以免 避免 而不是 还是
  不许 不准 随意 随便 尽量 之类 至少
`)

/** Generic Chinese words that are no trigger on their own. */
export const GENERIC_ZH = words(`
  文件 代码 测试 使用 修改 更新 添加 问题 数据 方法 情况 东西 处理 操作 注意 解决 出现 发生 变化 改动 内容 结果 错误
  功能 项目 系统 用户 命令 输出 输入 配置 版本 步骤 选项 默认 时间 地方 方式 事情 工作 运行 检查 创建 删除 需要 执行
  来自 拿到 含义 更改 改了 说明 写明 确认 保留 造成 导致 出错
`)
