/**
 * Role token categories (docs/STYLE.md §8): the parser consumes only these, so a new
 * spelling in the grammar config never touches a grammar rule.
 */
import { createToken, Lexer, type TokenType } from 'chevrotain'
import { nameCharClass } from './codes.js'

function category(name: string): TokenType {
  return createToken({ name, pattern: Lexer.NA })
}

export const cat = {
  WrapperOpen: category('WrapperOpen'),
  WrapperClose: category('WrapperClose'),
  InvokeOpen: category('InvokeOpen'),
  InvokeClose: category('InvokeClose'),
  ParamOpen: category('ParamOpen'),
  ParamClose: category('ParamClose'),
  TagEnd: category('TagEnd'),
  AttrName: category('AttrName'),
  /** A whole ` name="value"` (spaces, name, `=`, quoted value) in one token: the common attribute, lexed and parsed once. */
  Attr: category('Attr'),
  Eq: category('Eq'),
  QuoteOpen: category('QuoteOpen'),
  AttrText: category('AttrText'),
  QuoteClose: category('QuoteClose'),
  Ws: category('Ws'),
  CommentOpen: category('CommentOpen'),
  CommentText: category('CommentText'),
  CommentClose: category('CommentClose'),
  CDataOpen: category('CDataOpen'),
  CDataText: category('CDataText'),
  CDataClose: category('CDataClose'),
  ValueText: category('ValueText'),
  JsonOpen: category('JsonOpen'),
  JsonText: category('JsonText'),
  /** Prose, fenced code, code spans: never structure. */
  Text: category('Text'),
  /** A tail that more input could turn into something else. */
  Incomplete: category('Incomplete'),
  /** Everything after a point where the driver must decide. */
  Halt: category('Halt'),
  /** A character that cannot belong where it stands in a capture. */
  Junk: category('Junk'),
} as const

export type CategoryName = keyof typeof cat

/**
 * The text of an `Attr` token, ` name="value"`: spaces, a name, `=` and a
 * quoted value. The parser reads the parts off a matched image by position.
 */
export const attributeSource = `[ \\t\\r\\n]+[${nameCharClass}]+[ \\t\\r\\n]*=[ \\t\\r\\n]*(?:"[^"]*"|'[^']*')`

export const allCategories: TokenType[] = Object.values(cat)
