/**
 * `dialectForModel`: which dialect pack a model writes its tool calls in, and
 * whether its chat template opens the reasoning in the prompt, from the model
 * id a request names. One ordered table of rules, most specific first; the
 * first rule whose pattern matches the normalised id decides.
 */

import { unreadable } from './grammar.js'
import { dialects } from './registry.js'

/** The dialect packs (`grammar/dialects/<name>.json`), by name. */
export const dialectNames = [
  'deepseek',
  'deepseek-v3',
  'qwen3-coder',
  'seed-oss',
  'hermes',
  'glm',
  'minimax-m2',
  'minimax-m1',
  'kimi-k2',
  'kimi-k3',
  'mistral',
  'llama3-json',
  'pythonic',
  'gemma4',
  'gpt-oss',
  'phi-4-mini',
  'granite',
  'internlm',
  'step3',
  'jamba',
  'hunyuan',
  'apertus',
  'gigachat',
  'xlam',
] as const

/** The name of a dialect pack. */
export type DialectName = (typeof dialectNames)[number]

/** What {@link dialectForModel} gives for a model it knows. */
export interface ModelDialect {
  /** The pack the model writes its tool calls in. */
  dialect: DialectName
  /**
   * The model's chat template ends the prompt inside the reasoning (`<think>\n`,
   * an open think channel), so the raw completion starts in it with no
   * opener: the sieve's `startInReasoning`.
   */
  startInReasoning: boolean
}

/**
 * One row of the table: the first row whose `pattern` matches the
 * normalised id (see {@link dialectForModel}) decides. A row with
 * `dialect: null` stops the search with no answer: a model that is not a
 * chat model, or a family whose format no pack reads, that a later, broader
 * row would otherwise claim.
 */
export type ModelRule =
  | { readonly pattern: RegExp; readonly dialect: DialectName; readonly startInReasoning: boolean; readonly note: string }
  | { readonly pattern: RegExp; readonly dialect: null; readonly note: string }

const think = true
const plain = false

/**
 * The table. `note` says why, and for every `startInReasoning: true` which
 * template opens the reasoning. Version separators are `.` or `-` (Bedrock
 * writes `llama3-1`); the normaliser has already turned Fireworks' `v3p1`
 * into `v3.1`, `_` and blanks into `-`, and tags (`:30b`) into `-30b`.
 */
export const modelRules: readonly ModelRule[] = [
  // not chat models, or a guard: never a dialect, whatever family name they carry
  { pattern: /embed|rerank|guard|\btts\b|whisper|\bocr\b/, dialect: null, note: 'embedding, reranking, guard, speech and OCR models write no tool calls' },

  // DeepSeek: DSML from V3.2, special tokens before it
  { pattern: /\bdeepseek-reasoner\b/, dialect: 'deepseek', startInReasoning: think, note: "DeepSeek's API in thinking mode: the encoder ends the prompt with `<｜Assistant｜><think>` (deepseek-encoder fixtures, thinking cases)" },
  { pattern: /\bdeepseek-v3\.2-exp\b/, dialect: 'deepseek-v3', startInReasoning: plain, note: 'V3.2-Exp writes the V3.1 special-token calls; its template ends `</think>` by default' },
  { pattern: /\bdeepseek-v(?:3\.2|4)\b.*-(?:think|thinking|speciale)\b/, dialect: 'deepseek', startInReasoning: think, note: 'a thinking-mode V3.2/V4 id (Speciale thinks only): the encoder ends the prompt with `<think>`' },
  { pattern: /\bdeepseek-v(?:3\.2|4)(?:\.\d+)?\b/, dialect: 'deepseek', startInReasoning: plain, note: 'DSML V3.2/V4/V4.1; chat mode (the default) ends the prompt with `</think>`' },
  { pattern: /\bdeepseek-chat-v3(?!\.2)/, dialect: 'deepseek-v3', startInReasoning: plain, note: "OpenRouter's deepseek-chat-v3-0324 / -v3.1: V3 and V3.1 special tokens, non-thinking" },
  { pattern: /\bdeepseek-chat\b/, dialect: 'deepseek', startInReasoning: plain, note: "DeepSeek's API in chat mode (V3.2 and later): DSML, prompt ends `</think>`" },
  { pattern: /\bdeepseek-r1\b|\br1-1776\b/, dialect: 'deepseek-v3', startInReasoning: think, note: 'R1, R1-0528 and the R1 distills (Qwen, Llama, Qwen3-8B) keep the V3 tool tokens; their templates end `<｜Assistant｜><think>\\n` (llama.cpp DeepSeek-R1-Distill-Qwen-32B.jinja)' },
  { pattern: /\bdeepseek-v3(?:\.1)?\b/, dialect: 'deepseek-v3', startInReasoning: plain, note: 'V3, V3-0324, V3.1 (Terminus): the V3.1 template defaults to thinking off and ends `</think>`' },

  // Qwen: the coder XML from Qwen3-Coder and Qwen3.5 on, Hermes JSON before
  { pattern: /\bqwen-?3-coder\b/, dialect: 'qwen3-coder', startInReasoning: plain, note: 'Qwen3-Coder (and -Next, -plus, -flash): no reasoning in its template' },
  { pattern: /\bqwen-?3\.[5-9]\b/, dialect: 'qwen3-coder', startInReasoning: think, note: 'Qwen3.5-3.8 write the coder XML; their templates end `<|im_start|>assistant\\n<think>\\n` with thinking on (the default)' },
  { pattern: /\bqwen-?3(?![.\d]).*\bthinking\b/, dialect: 'hermes', startInReasoning: think, note: 'Qwen3 *-Thinking-2507, Qwen3-Next-*-Thinking, Qwen3-VL-*-Thinking: thinking-only templates end `<|im_start|>assistant\\n<think>\\n`' },
  { pattern: /\bqwen-?3(?![.\d])/, dialect: 'hermes', startInReasoning: plain, note: 'Qwen3 (hybrid: the model writes `<think>` itself), *-Instruct-2507, Qwen3-Next, Qwen3-Max, Qwen3-VL' },
  { pattern: /\bqwq-32b-preview\b/, dialect: 'hermes', startInReasoning: plain, note: "QwQ-Preview's template is Qwen2.5's: nothing opened" },
  { pattern: /\bqwq\b/, dialect: 'hermes', startInReasoning: think, note: 'QwQ-32B forces reasoning: its template ends `<|im_start|>assistant\\n<think>\\n`' },
  { pattern: /\bqwen-?2(?:\.5)?\b/, dialect: 'hermes', startInReasoning: plain, note: 'Qwen2 and Qwen2.5, the coder too (`<tool_call>` JSON)' },
  { pattern: /\bqwen-(?:coder-)?(?:plus|max|turbo|flash|long)\b/, dialect: 'hermes', startInReasoning: plain, note: 'DashScope aliases of the Qwen2.5/Qwen3 line' },

  { pattern: /\bseed-oss\b/, dialect: 'seed-oss', startInReasoning: plain, note: 'the model opens `<seed:think>` itself' },

  // GLM and the families that write its pairs
  { pattern: /\bglm-?4\.[56]v?\b/, dialect: 'glm', startInReasoning: plain, note: 'GLM-4.5/4.6 and their V models: the prompt ends `<|assistant|>`, the model writes `\\n<think>` (llama.cpp GLM-4.6.jinja, glm_4_5.jinja)' },
  { pattern: /\bglm-?(?:4\.[7-9]|5)(?:\.\d+)?\b/, dialect: 'glm', startInReasoning: think, note: 'GLM-4.7 and GLM-5.x: the template ends `<|assistant|><think>` unless thinking is off' },
  { pattern: /\blaguna\b/, dialect: 'glm', startInReasoning: plain, note: "poolside Laguna writes GLM-4.7's pairs" },

  { pattern: /\bminimax-m2(?:\.\d+)?\b/, dialect: 'minimax-m2', startInReasoning: think, note: 'MiniMax-M2.x: the template ends `]~b]ai\\n<think>\\n` (llama.cpp unsloth-MiniMax-M2.jinja)' },
  { pattern: /\bminimax-m1\b/, dialect: 'minimax-m1', startInReasoning: plain, note: 'MiniMax-M1: the model writes `<think>` itself' },

  { pattern: /\bkimi-k3\b/, dialect: 'kimi-k3', startInReasoning: think, note: 'Kimi K3: the generation prompt opens the think channel (llama.cpp Kimi-K3.jinja)' },
  { pattern: /\bkimi-k2\.[5-9]\b/, dialect: 'kimi-k2', startInReasoning: think, note: 'Kimi K2.5/K2.6: the default generation prompt ends `<|im_middle|><think>`' },
  { pattern: /\bkimi-k2\b/, dialect: 'kimi-k2', startInReasoning: plain, note: 'K2-Instruct has no reasoning; K2-Thinking writes `<think>` itself (llama.cpp moonshotai-Kimi-K2-Thinking.jinja ends `<|im_middle|>`)' },

  { pattern: /\bgpt-oss\b/, dialect: 'gpt-oss', startInReasoning: plain, note: 'harmony: the prompt ends `<|start|>assistant`, the model opens its analysis channel' },

  // before Mistral and Llama, whose names these carry
  { pattern: /\bhermes-?[2-4]\b/, dialect: 'hermes', startInReasoning: plain, note: 'Nous Hermes 2 Pro, 3, 4 (Hermes 4 writes `<think>` itself)' },
  { pattern: /\bxlam\b/, dialect: 'xlam', startInReasoning: plain, note: 'Salesforce xLAM, on Llama or Qwen' },
  { pattern: /\bnemotron-3\b/, dialect: 'qwen3-coder', startInReasoning: think, note: "Nemotron 3 (Nano, Super) writes the coder XML (vLLM's `qwen3_coder` parser); its template ends `<|im_start|>assistant\\n<think>\\n` with thinking on, the default (llama.cpp's nemotron_v3 parser reads that ending)" },
  { pattern: /\bnemotron\b/, dialect: null, note: 'older Nemotrons write `<TOOLCALL>[…]`, which no pack reads' },

  { pattern: /\b(?:open-)?(?:mistral|mixtral|ministral|magistral|devstral|codestral|pixtral)\b/, dialect: 'mistral', startInReasoning: plain, note: 'Mistral, Nemo, Small/Medium/Large, Magistral (writes `[THINK]` itself), Devstral, Ministral' },

  // Llama: 3.1/3.3 JSON, 3.2 text models and 4 pythonic
  { pattern: /\bllama-?v?3[.-]2-(?:11|90)b-vision\b/, dialect: 'llama3-json', startInReasoning: plain, note: "Llama 3.2 Vision takes 3.1's JSON tool format" },
  { pattern: /\bllama-?v?3[.-]2\b/, dialect: 'pythonic', startInReasoning: plain, note: 'Llama 3.2 1B/3B: pythonic calls' },
  { pattern: /\bllama-?v?3[.-][13]\b/, dialect: 'llama3-json', startInReasoning: plain, note: 'Llama 3.1 and 3.3: `{"name", "parameters"}`' },
  { pattern: /\bllama-?4\b/, dialect: 'pythonic', startInReasoning: plain, note: 'Llama 4: `<|python_start|>[…]`' },
  { pattern: /\bolmo-?3\b.*\bthink\b/, dialect: 'pythonic', startInReasoning: think, note: 'Olmo 3 Think: the generation prompt ends `<|im_start|>assistant\\n<think>`' },
  { pattern: /\bolmo-?3\b/, dialect: 'pythonic', startInReasoning: plain, note: 'Olmo 3 Instruct: `<function_calls>f(a=1)</function_calls>`' },
  { pattern: /\blfm-?2(?:\.\d+)?\b/, dialect: 'pythonic', startInReasoning: plain, note: 'LFM2 / LFM2.5: `<|tool_call_start|>[…]`' },

  { pattern: /\bgemma-?4\b/, dialect: 'gemma4', startInReasoning: plain, note: 'Gemma 4: the model opens `<|channel>thought` itself' },
  { pattern: /\bphi-?4-mini-(?:flash-)?reasoning\b/, dialect: null, note: 'the Phi-4-mini reasoning models have no tool format' },
  { pattern: /\bphi-?4-mini\b/, dialect: 'phi-4-mini', startInReasoning: plain, note: 'Phi-4-mini-instruct' },

  { pattern: /\bgranite-?4\b/, dialect: 'hermes', startInReasoning: plain, note: 'Granite 4 writes Hermes JSON' },
  { pattern: /\bgranite-?3(?:\.\d+)?\b/, dialect: 'granite', startInReasoning: plain, note: 'Granite 3.x arrays (3.3 thinking: the model writes `<think>` itself)' },

  { pattern: /\bernie-?4\.5\b.*\bthinking\b/, dialect: 'hermes', startInReasoning: think, note: 'ERNIE-4.5-*-Thinking: the template opens `<think>`, the completion has `</think>` with no opener' },
  { pattern: /\bernie-?4\.5\b/, dialect: 'hermes', startInReasoning: plain, note: 'ERNIE 4.5' },
  { pattern: /\blongcat-flash\b/, dialect: 'hermes', startInReasoning: plain, note: "LongCat's own `<longcat_tool_call>`, in the Hermes pack" },
  { pattern: /\btrinity-(?:nano|mini|large)\b/, dialect: 'hermes', startInReasoning: plain, note: 'Arcee Trinity' },

  { pattern: /\bstep-?3\.[5-9]\b/, dialect: 'qwen3-coder', startInReasoning: think, note: 'Step-3.5/3.7 Flash write the coder XML; the template ends `<|im_start|>assistant\\n<think>\\n` (llama.cpp StepFun3.7-Flash.jinja)' },
  { pattern: /\bstep-?3\b/, dialect: 'step3', startInReasoning: think, note: "Step-3 steptml; the prompt ends `<|BOT|>assistant\\n<think>\\n` (vLLM's step3 example, with the step3 reasoning parser)" },
  { pattern: /\bmimo-v[2-9]/, dialect: 'qwen3-coder', startInReasoning: plain, note: 'Xiaomi MiMo-V2 writes the coder XML' },

  { pattern: /\b(?:internlm-?[23]|intern-s1)\b/, dialect: 'internlm', startInReasoning: plain, note: 'InternLM2/2.5/3, Intern-S1 (writes `<think>` itself)' },
  { pattern: /\bjamba\b/, dialect: 'jamba', startInReasoning: plain, note: 'AI21 Jamba' },
  { pattern: /\bhunyuan-a13b\b/, dialect: 'hunyuan', startInReasoning: plain, note: 'Hunyuan-A13B (the model writes `<think>` itself); HY3 writes another format' },
  { pattern: /\bapertus\b/, dialect: 'apertus', startInReasoning: plain, note: 'Swiss AI Apertus' },
  { pattern: /\bgigachat-?3(?![.\d])/, dialect: 'gigachat', startInReasoning: plain, note: 'GigaChat 3 (3.5 is another format)' },
]

/** Cloud regions Bedrock puts before its vendor (`us.deepseek.r1-v1:0`). */
const bedrockRegion = /^(?:us|eu|apac|ap|jp|au|ca|global|us-gov)\./
/** Bedrock's `vendor.model` form: letters only before the dot, so `qwen2.5` and `glm-4.6` are not read as one. */
const bedrockVendor = /^([a-z]+)\.(?=[a-z])/
/** Longer than any model id; a longer string is not one, and is not scanned. */
const maxIdLength = 256

/**
 * The id as the table reads it: lower case, the last path segment (no org,
 * no `accounts/fireworks/models/`, no `@cf/`), a Bedrock vendor folded in
 * (`deepseek.r1-v1:0` → `deepseek-r1-v1-0`), tags and blanks as `-`, and
 * Fireworks' `3p1` as `3.1`.
 */
export function normaliseModelId(modelId: string): string {
  const segments = modelId.trim().toLowerCase().split('/').filter((s) => s !== '')
  let name = (segments[segments.length - 1] ?? '').replace(bedrockRegion, '')
  const vendor = bedrockVendor.exec(name)
  if (vendor !== null) {
    const rest = name.slice(vendor[0].length)
    name = rest.startsWith(vendor[1] as string) ? rest : `${vendor[1]}-${rest}`
  }
  return name.replace(/[:_\s]+/g, '-').replace(/(\d)p(\d)/g, '$1.$2')
}

/**
 * The dialect a model writes its tool calls in, and whether its chat
 * template opens the reasoning in the prompt, from the model id a request
 * names: a Hugging Face id with or without its org
 * (`Qwen/Qwen3-Coder-480B-A35B-Instruct`), a provider's id or alias
 * (`qwen/qwen3-coder:free`, `accounts/fireworks/models/glm-4p6`,
 * `@cf/openai/gpt-oss-120b`, `us.deepseek.r1-v1:0`, `qwen3-coder:30b`,
 * `deepseek-reasoner`, `kimi-k2-0905-preview`), with quantisation and date
 * suffixes, in any case.
 *
 * `startInReasoning` describes the raw completion as the model's template
 * primes it (for DeepSeek's API, `deepseek-reasoner`). A server that already
 * splits the reasoning off into its own field sends text that does not start
 * in it: pass `startInReasoning` to a sieve only when it reads the raw text.
 *
 * @param modelId The request's `model`.
 * @returns The dialect and reasoning start, or `undefined` for a model no
 *   pack covers (`gpt-4o`, `claude-…`, an embedding model) or a value that
 *   is not a model id (not a string, empty, over 256 characters).
 */
export function dialectForModel(modelId: string): ModelDialect | undefined {
  if (typeof modelId !== 'string' || modelId.length > maxIdLength) return undefined
  const name = normaliseModelId(modelId)
  if (name === '') return undefined
  const rule = modelRules.find((r) => r.pattern.test(name))
  if (rule === undefined || rule.dialect === null) return undefined
  return { dialect: rule.dialect, startInReasoning: rule.startInReasoning }
}

/**
 * The pack the sieve reads a model's output in, from its id: the pack
 * {@link dialectForModel} names when the sieve reads it and it is not the
 * default grammar's (`deepseek`), else undefined (the default grammar reads
 * it). Adapters that see the model's id use it when no dialect or grammar
 * was given.
 */
export function readableDialectOfModel(modelId: unknown): string | undefined {
  if (typeof modelId !== 'string') return undefined
  const picked = dialectForModel(modelId)
  if (picked === undefined || picked.dialect === 'deepseek') return undefined
  const pack = dialects[picked.dialect]
  return pack !== undefined && unreadable(pack) === null ? picked.dialect : undefined
}
