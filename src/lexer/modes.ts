/**
 * Lexer modes. Every switch is a push to the next mode (never a pop), so the
 * mode after any token is a function of that token alone and the driver can
 * resume from `{ mode, ctx, pending }`.
 */
export const modes = {
  /** Ordinary text. Wrapper openers (and bare invoke openers) start a capture. */
  prose: 'prose',
  /** Text after an unmatched backtick run in this paragraph: a tag here is held. */
  span: 'span',
  /** Holding from a tag seen in `span` until the paragraph ends or a level closes. */
  spanHold: 'spanHold',
  /**
   * A backtick fence opener line met while a tag is held: if its info string
   * holds a backtick it was an inline run of the paragraph, else the fence
   * interrupts the paragraph and the held tag is live.
   */
  spanHoldFenceInfo: 'spanHoldFenceInfo',
  /** The rest of a fence opener's line (the info string). */
  fenceInfo: 'fenceInfo',
  /**
   * Holding from a tag in a backtick fence's info string: a backtick later on
   * the line voids the fence (the tag may be live), a line feed confirms it (text).
   */
  fenceInfoHold: 'fenceInfoHold',
  /** An HTML comment block (CommonMark 4.6, kind 2): text up to the line holding `-->`. */
  htmlComment: 'htmlComment',
  /** A `<pre>`, `<script>`, `<style>` or `<textarea>` block (kind 1): text up to the line holding a closer of one of them. */
  htmlRaw: 'htmlRaw',
  /** A processing instruction block (kind 3, `<?`): text up to the line holding `?>`. */
  htmlInstruction: 'htmlInstruction',
  /** A declaration block (kind 4, `<!` and an ASCII letter, as `<!DOCTYPE html>`): text up to the line holding `>`. */
  htmlDeclaration: 'htmlDeclaration',
  /** A CDATA block (kind 5, `<![CDATA[`): text up to the line holding `]]>`. */
  htmlCdata: 'htmlCdata',
  /** The rest of an HTML block's last line: its line feed goes back to prose. */
  htmlEnd: 'htmlEnd',
  /** A line of indented code (CommonMark 4.4): text to its end. */
  indented: 'indented',
  /** Inside fenced code. */
  fence: 'fence',
  /** After a candidate closing fence run: only spaces may follow before the line feed. */
  fenceClose: 'fenceClose',
  tagWrapper: 'tagWrapper',
  tagInvoke: 'tagInvoke',
  tagParameter: 'tagParameter',
  attrDqWrapper: 'attrDqWrapper',
  attrSqWrapper: 'attrSqWrapper',
  attrDqInvoke: 'attrDqInvoke',
  attrSqInvoke: 'attrSqInvoke',
  attrDqParameter: 'attrDqParameter',
  attrSqParameter: 'attrSqParameter',
  /** Inside a wrapper, between invokes. */
  wrapperBody: 'wrapperBody',
  /** Inside an invoke, between parameters. */
  invokeBody: 'invokeBody',
  /** An invoke whose body is a JSON object. */
  jsonBody: 'jsonBody',
  /** A parameter value. */
  value: 'value',
  /**
   * A parameter value whose tag has a `string` attribute (DeepSeek's own
   * encoders write these): nothing in it is markup, and only the opener's
   * own closer ends it (`LexContext.rawOpener`).
   */
  rawValue: 'rawValue',
  /**
   * Inside a block read whole (`Grammar.blocks`): text up to one of its
   * closers; the dialect's reader reads it once the closer comes.
   */
  blockBody: 'blockBody',
  /**
   * Inside a block that ends with its JSON (`Grammar.blocks.json`): the
   * scanner of `json-scan.ts` as custom matchers (`json-tokens.ts`), its
   * state in the context (`LexContext.json`) and each token's payload.
   */
  jsonBlock: 'jsonBlock',
  /**
   * A message's start, in a grammar with blocks anchored there
   * (`JsonBlocks.anchored`): the start's decision as matchers
   * (`start-tokens.ts`). Only a run is ever in it: the driver's state stays
   * `prose`, and `DriverState.started` says the start is undecided.
   */
  messageStart: 'messageStart',
  /**
   * What is left of a block that failed (or went over the capture limit)
   * once it was released: text up to the closer that balances its opener,
   * so no call ever comes from inside it. The driver counts the depth.
   */
  skip: 'skip',
  cdata: 'cdata',
  commentWrapper: 'commentWrapper',
  commentInvoke: 'commentInvoke',
  commentValue: 'commentValue',
  /** The driver must decide before anything further is lexed: one token takes the rest. */
  halt: 'halt',
} as const

export type ModeName = (typeof modes)[keyof typeof modes]
