/**
 * The rules part of `buildToolPrompt` for a dialect pack, in plain English,
 * built from the pack's data: how a block is laid out, where the name goes,
 * how each kind of value is written. The example is written by
 * `formatToolCalls` with the same pack, so what the prompt shows is what the
 * pack reads.
 */
import type { BlockSpec, DialectPack, ValueRules } from '../dialects/types.js'
import { blockOf, formatDialect } from '../format/dialect.js'

/** The prompt's example call: a made-up tool with one value of each kind the rules tell apart. */
export const dialectExample = {
  name: 'search_docs',
  input: { query: 'price < 10 & "in stock"', limit: 5, exact: false },
} as const

const q = (s: string) => JSON.stringify(s)

/** The block's opener as written (tags in the pack's spelling). */
function opener(pack: DialectPack, block: BlockSpec): string {
  const o = block.open
  const sp = pack.tagSpelling ?? { open: '<', end: '>' }
  if (o.kind === 'tag') return sp.open + o.name + sp.end
  if (o.kind === 'literal') return o.text[0]!
  return o.kind === 'regex' ? o.write.trim() : ''
}

function layout(pack: DialectPack, block: BlockSpec): string {
  if (block.layout === 'wrapper') return block.array === true ? '- Put every call of this turn in the one list, separated as shown.' : '- Put every call of this turn in the one block, one after another as shown.'
  if (block.layout === 'per-opener') return `- Start each call with ${opener(pack, block)}; to call several tools, write one call after another.`
  return '- Write one block per call; to call several tools, write one block after another.'
}

function valueRules(v: ValueRules, block: BlockSpec): string[] {
  const args = block.call.arguments
  if (args.kind === 'json' || args.kind === 'json-value') {
    return ['- The arguments are one JSON object: strings in double quotes with JSON escapes, numbers as digits, true, false and null, arrays and objects as JSON.']
  }
  if (args.kind === 'python-kwargs') {
    return ['- The arguments are Python keyword arguments with Python literals: strings in quotes with Python escapes, numbers as digits, True, False and None, lists and dicts in Python syntax.']
  }
  const lines: string[] = []
  if (v.strings === 'quoted') lines.push(`- A string value: between two ${v.quote ?? '"'} tokens, exactly as it is, with no other quotes and no escaping.`)
  else if (v.strings === 'raw') lines.push(`- A string value: the text exactly as it is, with no quotes, no escaping and no entities${v.padding === undefined ? '' : ', on its own line between the line breaks shown'}.`)
  else if (v.strings === 'json') lines.push('- A string value: in double quotes with JSON escapes.')
  else if (v.strings === 'python') lines.push('- A string value: in quotes with Python escapes.')
  lines.push(`- A number: as digits. A boolean or null: ${v.literals.true}, ${v.literals.false} or ${v.literals.null}.`)
  if (v.containers === 'python') lines.push('- An array or object: in Python syntax (lists, dicts with quoted keys, True, False, None).')
  else if (v.containers === 'literal') lines.push(`- An array or object: ${v.sortKeys === true ? 'keys in sorted order, ' : ''}keys bare, strings quoted as above, no spaces, as the example shows.`)
  else lines.push('- An array or object: as JSON.')
  const ta = v.typeAttribute
  if (ta !== undefined) {
    const t = ta.values
    const distinct = new Set(Object.values(t)).size
    if (distinct === 2) lines.push(`- Mark each value with ${ta.attribute}="${t.string}" for a string and ${ta.attribute}="${t.number}" for anything else.`)
    else lines.push(`- Mark each value with its type in ${ta.attribute}="…": ${Object.entries(t).map(([k, w]) => `${q(w)} for ${k === 'null' ? 'null' : `a${/^[ao]/.test(k) ? 'n' : ''} ${k}`}`).join(', ')}.`)
  }
  return lines
}

/** The rules and example section for `pack` (its block `variant`, or its first). */
export function dialectRules(pack: DialectPack, variant: string | undefined): string {
  const block = blockOf(pack, variant)
  const example = formatDialect([dialectExample], pack, variant)
  const where = block.anchored === true ? 'at the very start of your reply, with nothing before it' : 'at the end of your reply'
  const { query, limit, exact } = dialectExample.input
  return [
    '# Tools',
    '',
    `You can call the tools listed below. To call a tool, write the call ${where}, in exactly this form:`,
    '',
    example,
    '',
    `That example calls a made-up tool, ${dialectExample.name}, with query set to the text ${q(query)}, limit set to the number ${limit} and exact set to ${exact}. It is not one of your tools.`,
    '',
    'How to write a call:',
    layout(pack, block),
    ...valueRules(pack.values, block),
    '- Give only the parameters the tool declares, with the types its schema asks for, and every required one. If you lack a required value, ask the user instead of guessing.',
    '- After the call, stop: the results come back in the next message. Then answer the user in plain language.',
    '',
    'Write a call only to call a tool now. Never write one, or any part of one, as an example, in Markdown code (fenced or inline), in a quote, or in your reasoning. To show or explain the format, describe it in words.',
  ].join('\n')
}
