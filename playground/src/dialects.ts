/** The dialects the picker offers: a name and the grammar it starts the editor with. */
import { defaultGrammar } from 'toolsieve'
import type { Grammar } from 'toolsieve'

export interface Dialect {
  id: string
  label: string
  grammar: Grammar
}

export const dialects: readonly Dialect[] = [{ id: 'deepseek', label: 'deepseek (default)', grammar: defaultGrammar }]

/** The grammar as the editor shows it: the library's own object, as JSON. */
export function grammarJson(grammar: Grammar): string {
  return JSON.stringify(grammar, null, 2)
}
