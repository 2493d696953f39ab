/**
 * Word lists for `generate.ts`: prose in English and Chinese, inline code
 * spans, paths, code lines for CDATA bodies, tools and their parameters.
 * Kept apart so the generator reads as structure.
 *
 * Prose holds no unmatched backtick and no `<` that could start a tag; code
 * lines may hold anything except `]]>`, since they only go into fences and CDATA.
 */

export const EN = [
  'Let me look at the project layout first.',
  'The failing test points at the parser, so I will start there.',
  'This keeps the public API unchanged while fixing the bug.',
  'If the count is under 10 we skip the cache, since 3 < 10 holds trivially.',
  'Here is what I found after reading the configuration.',
  'The function returns early when the input is empty.',
  'I will read the file, then apply a small edit and run the tests again.',
  'Note that the loop only runs while i < n, so the last element is never visited.',
  'That explains the off-by-one error in the summary.',
  'Nothing else in the module depends on this helper.',
  'The build passes now; the remaining warning is unrelated.',
  'We should keep the change small and easy to review.',
]

export const ZH = [
  '我先看一下项目的目录结构。',
  '这个错误来自解析器，所以先从那里开始排查。',
  '修改之后公共接口保持不变。',
  '根据配置文件，缓存默认是关闭的。',
  '下面我读取文件内容，然后做一个小的修改。',
  '测试现在全部通过了，剩下的警告与本次修改无关。',
  '注意：当输入为空时函数会提前返回。',
  '这样可以避免重复计算，性能会更好。',
]

/** Inline code spans; every one is closed, some mention tags that must stay text. */
export const SPANS = [
  '`npm test`',
  '`src/index.ts`',
  '`<tool_calls>`',
  '`<｜DSML｜invoke name="read_file">`',
  '`</parameter>`',
  '``a `nested` tick``',
  '`<|DSML|tool_calls>`',
  '`＜ＤＳＭＬ＜tool_calls＞`',
  '`Array<string>`',
]

export const DIRS = ['src', 'src/lexer', 'src/parser', 'test', 'lib/util', 'docs', 'packages/core/src']

export const FILES = ['index.ts', 'parse.ts', 'config.json', 'README.md', 'main.py', 'utils.go', 'app.tsx']

export const WORDS = ['alpha', 'cache', 'token', 'buffer', 'render', 'parse', 'queue', 'retry', 'stream', 'limit']

export const CODE_LINES = [
  'export function parse(input: string): Node[] {',
  '  if (a < b && b > c) return []',
  '  const map = new Map<string, number>()',
  '  // see `docs/usage.md` & the ``` fence notes',
  '  for (let i = 0; i < items.length; i++) {',
  '    total += items[i] ?? 0',
  '  }',
  '  return html`<div class="x">${name}</div>`',
  '  const tag = "</parameter>" // not a closer: inside CDATA',
  '  const open = "<｜DSML｜invoke name=\\"x\\">"',
  '  throw new Error(`bad input: ${input.slice(0, 10)}`)',
  '}',
  'def main():',
  '    print("配置已加载")',
  '    return 0 if x < 3 else 1',
  '',
]

/** Tools and the parameters they take. */
export const TOOLS: ReadonlyArray<[string, string[]]> = [
  ['read_file', ['path']],
  ['list_dir', ['path']],
  ['run_command', ['command']],
  ['web_search', ['query']],
  ['grep', ['pattern', 'path']],
  ['write_file', ['path', 'content']],
  ['edit_file', ['file_path', 'old_string', 'new_string']],
]
