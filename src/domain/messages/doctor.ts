import type {Catalog} from './language.js'

/**
 * `cairn doctor`'s report (app/doctor*.ts, cli/render.ts renderDoctor): each check's detail and fix, what --fix
 * repaired, and the last line. Check names (config, gitignore, ...), the status marks (ok, warn, FAIL), paths,
 * commands and file names stay verbatim; so do the errors of the files it reads (a config.yaml's own error).
 */
const en = {
  noPersonal: (home: string) => `no personal store at ${home} (created on first use)`,
  configFix: 'correct the field named above, or delete the key to use its default',
  configOk: (file: string) => `${file} is valid`,
  ignoreMissing: (file: string, missing: readonly string[]) => `${file} does not ignore ${missing.join(', ')}`,
  ignoreFix: (missing: readonly string[]) => `add ${missing.join(' and ')} to it, so derived files are never committed`,
  ignoreOk: 'derived and local files are ignored',
  attributesOk: (file: string) => `${file} keeps cards LF on every checkout`,
  attributesMissing: (file: string) => `${file} is missing: with core.autocrlf=true, cards are checked out with CRLF`,
  attributesFix: 'run "cairn doctor --fix" (or "cairn init") to add it',
  repoStateOk: 'no merge, rebase or cherry-pick in progress',
  journalOk: 'no interrupted write',
  journal: (op: string, started: string, file: string) =>
    `a cairn ${op} started at ${started} was interrupted (${file})`,
  journalFix: 'run "cairn doctor --fix", or any cairn write, to finish or roll it back',
  indexLock: (file: string) => `${file} exists: a git process is running, or one was killed`,
  indexLockFix: (quoted: string) => `if no git process is running, remove it: rm ${quoted}`,
  lockOk: 'no lock held',
  lockHeld: (pid: number, file: string) => `a cairn process (pid ${pid}) holds ${file}`,
  lockStale: (file: string) => `${file} is stale (its process is gone); the next write removes it`,
  leftovers: (n: number, some: string) => `interrupted writes left ${n} temp file(s): ${some}`,
  leftoversFix: 'run "cairn doctor --fix"; they were never part of a commit',
  leftoversOk: 'no interrupted writes',
  statusFailed: (error: string) => `git status failed: ${error}`,
  uncommitted: (n: number) => `${n} uncommitted change(s) in the store`,
  uncommittedFix: 'commit them, or run the cairn command again without --no-commit',
  uncommittedOk: 'the store matches HEAD',
  cards: (checked: number, errors: number, warnings: number) =>
    `${checked} card file(s), ${errors} error(s), ${warnings} warning(s)`,
  cardsFirst: (file: string, field: string, message: string) => `; first: ${file}: ${field}: ${message}`,
  cardsFix: 'run "cairn lint" for the full list',
  // doctor-triggers.ts
  noTriggers: (file: string) => `${file} has no triggers and no derived triggers: no prompt finds it by its words`,
  deriveFix: (own: string) => `run "cairn doctor --fix" to derive them, or give your own: ${own}`,
  ownFix: (own: string) => `give triggers: ${own}`,
  ownTriggers: (id: string) => `cairn review modify ${id} --set triggers=<phrase>,<phrase>`,
  triggersOk: 'every active and pending card has triggers',
  derived: (n: number, kind: string, commit: string | null) =>
    `derived triggers for ${n} card(s) in the ${kind} store${commit ? ` (commit ${commit})` : ''}`,
  // doctor-evidence.ts
  evidenceOk: 'every active card records the code it names',
  evidenceMissing: (n: number, ids: string) =>
    `${n} active card(s) name code the repository holds but record no evidence (${ids}): ` +
    'cairn stale cannot tell when that code goes',
  evidenceFix: 'run "cairn doctor --fix" to record it (those cards become cairn/card@3)',
  andMore: (ids: string, more: number) => `${ids} and ${more} more`,
  recorded: (n: number, commit: string | null) =>
    `recorded the evidence of ${n} card(s)${commit ? ` (commit ${commit})` : ''}`,
  // doctor.ts repair
  removedTemp: (n: number, kind: string) => `removed ${n} temp file(s) an interrupted write left in the ${kind} store`,
  added: (files: string, commit: string | null) => `added ${files}${commit ? ` (commit ${commit})` : ''}`,
  // doctor-clients.ts
  geminiTrusted: (root: string) => `Gemini CLI trusts ${root}: its cairn hooks run`,
  geminiUntrusted: (root: string, file: string) =>
    `Gemini CLI does not trust ${root}, so it skips the cairn hooks in ${file}`,
  geminiFix: (quoted: string) =>
    `start gemini here and trust the folder, or add ${quoted}: "TRUST_FOLDER" to ~/.gemini/trustedFolders.json`,
  codexUnreadable: (error: string) => `it cannot be read: ${error}`,
  codexConfigBad: (config: string, error: string, hooks: string) =>
    `${config} cannot be used (${error}), so whether Codex runs the cairn hooks in ${hooks} cannot be told`,
  codexConfigFix: (config: string) => `correct ${config}: Codex does not start with it either`,
  codexDisabled: (n: number, of: number, hooks: string, config: string) =>
    `${n} of the ${of} cairn hooks in ${hooks} are turned off in ${config} (enabled = false)`,
  codexDisabledFix: 'turn them on again in codex (/hooks), or remove the enabled = false lines',
  codexProject: (hooks: string, config: string) =>
    `Codex reads ${hooks} only in a trusted project, and ${config} does not trust this one`,
  codexProjectFix: 'start codex here and trust the project, then open /hooks and trust the cairn hooks',
  codexUntrusted: (n: number, of: number, hooks: string, config: string) =>
    `Codex skips ${n} of the ${of} cairn hooks in ${hooks}: it has no trusted hash for them in ${config}`,
  codexUntrustedFix:
    'start codex, open /hooks and trust the cairn hooks (again after each cairn update: Codex trusts a hook by its hash)',
  codexOk: (n: number, hooks: string) =>
    `Codex has a trusted hash for each of the ${n} cairn hooks in ${hooks} (/hooks shows one changed since as modified)`,
  // doctor-org.ts
  orgCacheOk: (url: string, commit: string) => `the cache holds ${url} at ${commit}, as committed`,
  orgCacheMissing: (url: string, commit: string) =>
    `the cache has no copy of ${url} at ${commit}: the layer's cards are left out until it is fetched`,
  orgCacheMissingFix: 'run "cairn org fetch"',
  orgCacheDrift: (commit: string, changed: number, added: number, removed: number, first: string) =>
    `the cache's copy at ${commit} does not match the commit: ${changed} file(s) changed, ${added} added, ${removed} removed (first: ${first})`,
  orgCacheDriftFix: 'run "cairn doctor --fix" to make the copy again from the commit',
  orgRemoteOk: (url: string) => `${url} answers`,
  orgRemoteDown: (url: string, reason: string) => `${url} cannot be reached (${reason}); the cache is still used`,
  orgRemoteFix: (url: string) => `check the URL and that your git credentials can read it: git ls-remote ${url}`,
  orgPinOk: (commit: string) => `a branch or tag upstream holds the pinned commit ${commit}`,
  orgPinGone: (url: string, commit: string) =>
    `no branch or tag of ${url} holds the pinned commit ${commit} any more: a machine without this cache cannot fetch it`,
  orgPinFix: (name: string) => `run "cairn org update ${name}" to pin the head of its ref`,
  remadeTree: (name: string, commit: string) => `made the cache's copy of the org layer ${name} at ${commit} again`,
  // cli/render.ts renderDoctor and the command's failure.
  fixed: (what: string) => `fixed: ${what}`,
  fix: (fix: string) => `fix: ${fix}`,
  healthy: 'The store is healthy.',
  unhealthy: 'The store has problems; see FAIL lines above.',
  failed: 'doctor found problems. Fix: follow the fix under each FAIL line, or run "cairn doctor --fix"',
}

const zh: typeof en = {
  noPersonal: home => `${home} 处没有个人仓库（第一次使用时创建）`,
  configFix: '修正上面指出的字段，或删除该键以使用默认值',
  configOk: file => `${file} 有效`,
  ignoreMissing: (file, missing) => `${file} 没有忽略 ${missing.join(', ')}`,
  ignoreFix: missing => `把 ${missing.join(' 和 ')} 加进去，派生文件就永远不会被提交`,
  ignoreOk: '派生文件和本地文件都已被忽略',
  attributesOk: file => `${file} 让卡片在每次检出时都保持 LF`,
  attributesMissing: file => `缺少 ${file}：在 core.autocrlf=true 时，卡片会以 CRLF 检出`,
  attributesFix: '运行 "cairn doctor --fix"（或 "cairn init"）添加它',
  repoStateOk: '没有进行中的 merge、rebase 或 cherry-pick',
  journalOk: '没有中断的写入',
  journal: (op, started, file) => `一次开始于 ${started} 的 cairn ${op} 被中断了（${file}）`,
  journalFix: '运行 "cairn doctor --fix" 或任一 cairn 写入命令，完成或回滚它',
  indexLock: file => `${file} 存在：有 git 进程正在运行，或者有进程被强行终止`,
  indexLockFix: quoted => `如果没有 git 进程在运行，删除它：rm ${quoted}`,
  lockOk: '没有持有的锁',
  lockHeld: (pid, file) => `一个 cairn 进程（pid ${pid}）持有 ${file}`,
  lockStale: file => `${file} 已失效（它的进程已不存在）；下一次写入会删除它`,
  leftovers: (n, some) => `中断的写入留下了 ${n} 个临时文件：${some}`,
  leftoversFix: '运行 "cairn doctor --fix"；它们从未进入任何提交',
  leftoversOk: '没有中断的写入',
  statusFailed: error => `git status 失败：${error}`,
  uncommitted: n => `仓库中有 ${n} 处未提交的改动`,
  uncommittedFix: '提交它们，或不带 --no-commit 再运行一次该 cairn 命令',
  uncommittedOk: '仓库与 HEAD 一致',
  cards: (checked, errors, warnings) => `${checked} 个卡片文件，${errors} 个错误，${warnings} 个警告`,
  cardsFirst: (file, field, message) => `；第一个：${file}: ${field}：${message}`,
  cardsFix: '运行 "cairn lint" 查看完整列表',
  noTriggers: file => `${file} 既没有 triggers 也没有 derived_triggers：任何提示都无法凭字面找到它`,
  deriveFix: own => `运行 "cairn doctor --fix" 派生它们，或自己给出：${own}`,
  ownFix: own => `给出 triggers：${own}`,
  ownTriggers: id => `cairn review modify ${id} --set triggers=<短语>,<短语>`,
  triggersOk: '每张 active 和待评审的卡片都有 triggers',
  derived: (n, kind, commit) => `为 ${kind} 仓库中的 ${n} 张卡片派生了 triggers${commit ? `（提交 ${commit}）` : ''}`,
  evidenceOk: '每张 active 卡片都记录了它提到的代码',
  evidenceMissing: (n, ids) =>
    `${n} 张 active 卡片提到了仓库中存在的代码，却没有记录 evidence（${ids}）：cairn stale 无法得知那些代码何时消失`,
  evidenceFix: '运行 "cairn doctor --fix" 记录它（这些卡片会变成 cairn/card@3）',
  andMore: (ids, more) => `${ids} 等（另有 ${more} 张）`,
  recorded: (n, commit) => `记录了 ${n} 张卡片的 evidence${commit ? `（提交 ${commit}）` : ''}`,
  removedTemp: (n, kind) => `删除了中断的写入在 ${kind} 仓库中留下的 ${n} 个临时文件`,
  added: (files, commit) => `添加了 ${files}${commit ? `（提交 ${commit}）` : ''}`,
  geminiTrusted: root => `Gemini CLI 信任 ${root}：它的 cairn 钩子会运行`,
  geminiUntrusted: (root, file) => `Gemini CLI 不信任 ${root}，因此会跳过 ${file} 中的 cairn 钩子`,
  geminiFix: quoted =>
    `在这里启动 gemini 并信任该文件夹，或把 ${quoted}: "TRUST_FOLDER" 加到 ~/.gemini/trustedFolders.json`,
  codexUnreadable: error => `它无法读取：${error}`,
  codexConfigBad: (config, error, hooks) =>
    `${config} 无法使用（${error}），因此无法判断 Codex 是否会运行 ${hooks} 中的 cairn 钩子`,
  codexConfigFix: config => `修正 ${config}：Codex 带着它也无法启动`,
  codexDisabled: (n, of, hooks, config) =>
    `${hooks} 中 ${of} 个 cairn 钩子里有 ${n} 个在 ${config} 中被关闭了（enabled = false）`,
  codexDisabledFix: '在 codex 中（/hooks）重新打开它们，或删除 enabled = false 这些行',
  codexProject: (hooks, config) => `Codex 只在受信任的项目中读取 ${hooks}，而 ${config} 没有信任这个项目`,
  codexProjectFix: '在这里启动 codex 并信任该项目，再打开 /hooks 信任 cairn 钩子',
  codexUntrusted: (n, of, hooks, config) =>
    `Codex 会跳过 ${hooks} 中 ${of} 个 cairn 钩子里的 ${n} 个：${config} 中没有它们受信任的哈希`,
  codexUntrustedFix: '启动 codex，打开 /hooks 信任 cairn 钩子（每次更新 cairn 后都要重新信任：Codex 按哈希信任钩子）',
  codexOk: (n, hooks) =>
    `${hooks} 中的 ${n} 个 cairn 钩子在 Codex 中都有受信任的哈希（之后改过的钩子 /hooks 会标为 modified）`,
  orgCacheOk: (url, commit) => `缓存中有 ${url} 在 ${commit} 的副本，与提交一致`,
  orgCacheMissing: (url, commit) => `缓存中没有 ${url} 在 ${commit} 的副本：获取之前，这一层的卡片不会被读到`,
  orgCacheMissingFix: '运行 "cairn org fetch"',
  orgCacheDrift: (commit, changed, added, removed, first) =>
    `缓存中 ${commit} 的副本与该提交不一致：改动 ${changed} 个文件，多出 ${added} 个，缺少 ${removed} 个（第一个：${first}）`,
  orgCacheDriftFix: '运行 "cairn doctor --fix"，按该提交重新生成副本',
  orgRemoteOk: url => `${url} 有响应`,
  orgRemoteDown: (url, reason) => `无法连接 ${url}（${reason}）；仍然使用缓存`,
  orgRemoteFix: url => `检查 URL，以及你的 git 凭据能否读取它：git ls-remote ${url}`,
  orgPinOk: commit => `上游有分支或标签包含固定的提交 ${commit}`,
  orgPinGone: (url, commit) => `${url} 已没有任何分支或标签包含固定的提交 ${commit}：没有这份缓存的机器无法获取它`,
  orgPinFix: name => `运行 "cairn org update ${name}"，固定到其分支或标签的最新提交`,
  remadeTree: (name, commit) => `按提交重新生成了组织层 ${name} 在 ${commit} 的缓存副本`,
  fixed: what => `已修复：${what}`,
  fix: fix => `修复：${fix}`,
  healthy: '仓库状态良好。',
  unhealthy: '仓库有问题；见上面的 FAIL 行。',
  failed: 'doctor 发现了问题。修复：按每个 FAIL 行下的修复操作处理，或运行 "cairn doctor --fix"',
}

export const DOCTOR_TEXT: Catalog<typeof en> = {en, 'zh-CN': zh}
