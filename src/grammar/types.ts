/**
 * The grammar config: the dialect as data. `grammar/default.json` is one of
 * these; `grammar/schema.json` is its JSON Schema.
 */

/** The three structural roles a tag can play. */
export type Role = 'wrapper' | 'invoke' | 'parameter'

/**
 * One piece of a tag frame: one of `lit` (literal alternatives), repeated
 * `min`..`max` times (default exactly once), or the slot where the local name goes.
 * Repetition is bounded so the longest delimiter — and so the held tail — is bounded.
 */
export type FramePart =
  | { lit: string[]; min?: number; max?: number }
  | { name: true }

/** A sequence of parts that spells the start of a tag, up to and including the local name. */
export type FrameSequence = FramePart[]

/**
 * A spelling family of the tag frame: how `<`, the prefix and `/` are written
 * around a local name. Each alternative in `open`/`close` is a sequence that must
 * contain exactly one `{ name: true }` part; `end` lists how a tag may end.
 */
export interface Frame {
  name: string
  description?: string
  open: FrameSequence[]
  close: FrameSequence[]
  end: FrameSequence[]
  /**
   * Drift a tag may have before an attribute, after its name or another
   * attribute: literals only, like `end` (`|` in `<|DSML|invoke| name="x">`).
   * It is read as a space only where blanks and an attribute's name follow
   * it; anywhere else it is what it would be without this (a bar alone ends
   * the tag). Default: none.
   */
  beforeAttributes?: FrameSequence[]
}

/** A local name of a role; `frames` limits it to some frames (default: all). */
export type RoleName = string | { name: string; frames?: string[] }

export interface Grammar {
  /** Shown in errors and checkpoints. */
  name: string
  roles: Record<Role, RoleName[]>
  frames: Frame[]
  /** Local names and the `DSML` prefix match case-insensitively. Default true. */
  caseInsensitive?: boolean
  /** Attribute names the parser reads. */
  /**
   * Attribute names the parser reads. `from`: where an invoke's name and a
   * parameter's key come from: the `name` attribute (default) or the tag's
   * own value (`<function=f>`, `<parameter=k>`: Qwen3-Coder, Seed-OSS).
   */
  attributes?: { name?: string; string?: string; from?: 'attribute' | 'tagValue' }
  /**
   * How parameter values are read. `strings: 'xml'` (default): CDATA,
   * entities, JSON literals, nested XML, raw where a `string` attribute says
   * so. `'raw'`: every value is raw text up to its own closer (nothing in it
   * is markup), one line feed dropped at each edge, typed by the tool schema
   * or read as a JSON or Python literal (`42`, `True`, `{"a": 1}`);
   * `containers: 'python'`: objects and arrays as Python's `str()` writes
   * them (`{'k': True}`); `padding`: written at each edge of a raw value
   * (Qwen3-Coder's line feed), dropped once there when read.
   */
  values?: { strings?: 'xml' | 'raw'; containers?: 'json' | 'python'; padding?: string }
  repairs?: {
    /** `<invoke …>…</invoke></tool_calls>` with no opening wrapper becomes a call. Default true. */
    missingOpeningWrapper?: boolean
    /**
     * At the end of the stream, the complete invokes of a block that has no
     * closing wrapper (a response cut by max_tokens) become calls, with an
     * `unclosed-wrapper` diagnostic; the unfinished rest is text. Default true.
     */
    unclosedWrapper?: boolean
    /**
     * At the end of the stream, an unclosed `<![CDATA[` in a value without a
     * `string` attribute, in a block otherwise complete, is closed there, with
     * a `repaired-cdata` diagnostic. Default true.
     */
    unclosedCdata?: boolean
  }
  limits?: {
    /** Default capture limit in UTF-16 units (256 KiB). */
    captureLimit?: number
  }
  markdown?: {
    /** Fenced code (``` and ~~~) is text. Default true. */
    fences?: boolean
    /** Inline code spans are text. Default true. */
    codeSpans?: boolean
  }
  /** Parameter names whose values are raw text (used by value decoding). */
  rawTextParameters?: string[]
  /**
   * The reasoning tags (DeepSeek's thinking mode): a stream that starts with
   * one of `open` has its reasoning up to the first of `close` split off.
   * Default `<think>` / `</think>`.
   */
  reasoning?: { open?: string[]; close?: string[] }
  /**
   * An invoke with no wrapper around it is a block of its own, complete at
   * its closer (Qwen3-Coder's bare `<function=f>…</function>`). Default
   * false: a bare invoke is a call only once a wrapper closer follows it
   * (the `missingOpeningWrapper` repair) or the stream ends.
   */
  invokeBlocks?: boolean
  /**
   * Blocks read whole: a block opens at one of `open` and ends at the first
   * of `close` after it, both written literally (`<tool_call>`,
   * `<|tool_calls_section_begin|>`); nothing between them is markup. The
   * dialect pack that set them reads what is between (the `dialect`
   * option); a grammar given as `grammar` cannot have them. With blocks,
   * `roles` may be empty. `open` and `close` are both empty or both not:
   * a grammar may have only blocks that end with their JSON.
   */
  blocks?: { open: string[]; close: string[]; json?: JsonBlocks }
}

/**
 * Blocks that end where the JSON value after their opener ends
 * (`[TOOL_CALLS][{…}]`, Granite's `<tool_call>[{…}]`, Phi-4-mini's
 * `functools[{…}]`): nothing closes them. After an opener may come blanks
 * or, with `head`, a head (a call's name: no blanks, brackets or quotes,
 * Mistral's `[TOOL_CALLS]f`) and one of the `head` separators (`[ARGS]`)
 * or the value itself; then one JSON object or array. The block ends
 * right after the value's last bracket, or after one of `close` written
 * right there (a closer the model may leave out, Apertus'
 * `<|tools_suffix|>`). What follows is text again. An opener followed by
 * anything else is text (a mention of the token).
 */
export interface JsonBlocks {
  /** The openers, written exactly; none is also an opener or closer of `Grammar.blocks`. Empty only with {@link anchored}. */
  open: string[]
  /** The separators between a head and its value (empty: the value follows the head directly); absent: no head, the value follows the opener (after blanks). */
  head?: string[]
  /** Closers that may follow the value right after its last bracket, part of the block when they do. */
  close?: string[]
  /**
   * A block that may open the message with no opener (Llama 3.1's bare
   * `{"name": …}`, Llama 3.2's `[f(a=1)]`, xLAM's `[{…}]`): the answer's
   * first non-blank text (after the reasoning) is one of `values` (an
   * object `{`, an array `[`), or one of `open` (an opener the model may
   * leave out, `<|python_tag|>`) and then one. Later in the message no
   * value is a block: JSON in prose is text.
   */
  anchored?: AnchoredBlocks
  /** The values are Python's (`[f(a='x')]`): strings may be single-quoted too, an array's first item may be a callee. Default false: JSON. */
  python?: boolean
}

/** The blocks of {@link JsonBlocks.anchored}: at the message start, with no opener or an optional one. */
export interface AnchoredBlocks {
  /** Openers the model may write before the value (none of them a {@link JsonBlocks.open} or a closed block's delimiter). */
  open?: string[]
  /** What the value may be: `object`, `array`, or both. */
  values: Array<'object' | 'array'>
  /**
   * Separators between blocks that are calls (Llama 3.1's `{…}; {…}`): right
   * after one, blanks, one of these, blanks and a value open the next
   * block. Anything else there is text, and nothing after it is anchored.
   */
  separator?: string[]
}

/** A patch for {@link extendGrammar}: names and frames are added, other fields replaced. */
export interface GrammarPatch {
  name?: string
  wrapper?: RoleName[]
  invoke?: RoleName[]
  parameter?: RoleName[]
  frames?: Frame[]
  caseInsensitive?: boolean
  attributes?: Grammar['attributes']
  values?: Grammar['values']
  repairs?: Grammar['repairs']
  limits?: Grammar['limits']
  markdown?: Grammar['markdown']
  rawTextParameters?: string[]
  reasoning?: Grammar['reasoning']
  blocks?: Grammar['blocks']
  invokeBlocks?: boolean
}
