/**
 * Model ids as requests send them, with the dialect and reasoning start
 * `dialectForModel` owes each. Shared by the behaviour test and the
 * table's white-box test (every rule is the first match of some id here).
 */
import type { DialectName } from '../../src/index.js'

/** `[id, dialect, startInReasoning]`. */
export type Expected = readonly [id: string, dialect: DialectName, startInReasoning: boolean]

/** The ids the issue lists. */
export const issueIds: readonly Expected[] = [
  ['Qwen/Qwen3-Coder-480B-A35B-Instruct', 'qwen3-coder', false],
  ['qwen/qwen3-coder', 'qwen3-coder', false],
  ['qwen/qwen3-coder:free', 'qwen3-coder', false],
  ['qwen3-coder-plus', 'qwen3-coder', false],
  ['qwen3-coder-flash', 'qwen3-coder', false],
  ['qwen3-coder:30b', 'qwen3-coder', false],
  ['zai-org/GLM-4.6', 'glm', false],
  ['glm-4.6', 'glm', false],
  ['moonshotai/Kimi-K2-Thinking', 'kimi-k2', false],
  ['kimi-k2-0905-preview', 'kimi-k2', false],
  ['kimi-k2-thinking', 'kimi-k2', false],
  ['MiniMaxAI/MiniMax-M2', 'minimax-m2', true],
  ['MiniMax-M2', 'minimax-m2', true],
  ['deepseek-ai/DeepSeek-R1', 'deepseek-v3', true],
  ['deepseek-chat', 'deepseek', false],
  ['deepseek-reasoner', 'deepseek', true],
  ['deepseek-ai/DeepSeek-V3.2', 'deepseek', false],
  ['us.deepseek.r1-v1:0', 'deepseek-v3', true],
  ['openai/gpt-oss-20b', 'gpt-oss', false],
  ['gpt-oss-120b', 'gpt-oss', false],
  ['meta-llama/Llama-3.1-8B-Instruct', 'llama3-json', false],
  ['mistralai/Mistral-Small-3.1-24B-Instruct-2503', 'mistral', false],
  ['mistral-small-latest', 'mistral', false],
  ['google/gemma-4-31B-it', 'gemma4', false],
  ['microsoft/Phi-4-mini-instruct', 'phi-4-mini', false],
]

/**
 * The model of each rendered fixture family (`source` names its template),
 * with the reasoning start the fixture shows: its inputs open with the
 * reasoning's text and a bare closer exactly where the template opened it.
 */
export const fixtureIds: readonly Expected[] = [
  // deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja: the prompt ends `<｜Assistant｜><think>\n`
  ['deepseek-ai/DeepSeek-R1-Distill-Qwen-32B', 'deepseek-v3', true],
  // deepseek-ai-DeepSeek-V3.1.jinja: thinking off by default, the prompt ends `</think>`
  ['deepseek-ai/DeepSeek-V3.1', 'deepseek-v3', false],
  // gemma4.jinja: the model opens its thought channel itself
  ['google/gemma-4-26b-a4b-it', 'gemma4', false],
  // GLM-4.6.jinja: the inputs begin `\n<think>`
  ['zai-org/GLM-4.6-FP8', 'glm', false],
  // gpt-oss-20b chat_template.jinja: harmony, the inputs begin `<|channel|>analysis`
  ['openai/gpt-oss-20b', 'gpt-oss', false],
  // qwen2.5-instruct.jinja
  ['Qwen/Qwen2.5-7B-Instruct', 'hermes', false],
  // moonshotai-Kimi-K2-Thinking.jinja: the inputs begin `<think>`
  ['moonshotai/Kimi-K2-Thinking', 'kimi-k2', false],
  // Kimi-K3.jinja: the inputs begin inside the think channel (`…<|close|>think<|sep|>`)
  ['moonshotai/Kimi-K3', 'kimi-k3', true],
  // tool_chat_template_llama3.1_json.jinja
  ['meta-llama/Llama-3.1-70B-Instruct', 'llama3-json', false],
  // unsloth-MiniMax-M2.jinja: the inputs begin with the reasoning, then `</think>`
  ['unsloth/MiniMax-M2-GGUF', 'minimax-m2', true],
  // mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja
  ['mistralai/Mistral-Small-3.1-24B-Instruct-2503', 'mistral', false],
  // llama-cpp-microsoft-Phi-4-mini-instruct.jinja
  ['microsoft/Phi-4-mini-instruct', 'phi-4-mini', false],
  // tool_chat_template_qwen3coder.jinja
  ['Qwen/Qwen3-Coder-30B-A3B-Instruct', 'qwen3-coder', false],
  // ByteDance-Seed-OSS.jinja: the inputs begin `<seed:think>`
  ['ByteDance-Seed/Seed-OSS-36B-Instruct', 'seed-oss', false],
]

/** Ids from providers' catalogues and local servers. */
export const providerIds: readonly Expected[] = [
  // OpenRouter
  ['deepseek/deepseek-chat-v3-0324', 'deepseek-v3', false],
  ['deepseek/deepseek-chat-v3.1:free', 'deepseek-v3', false],
  ['deepseek/deepseek-r1-0528:free', 'deepseek-v3', true],
  ['deepseek/deepseek-v3.2-exp', 'deepseek-v3', false],
  ['deepseek/deepseek-v4-flash:free', 'deepseek', false],
  ['z-ai/glm-4.5-air:free', 'glm', false],
  ['z-ai/glm-4.7', 'glm', true],
  ['moonshotai/kimi-k2.5', 'kimi-k2', true],
  ['minimax/minimax-m2:free', 'minimax-m2', true],
  ['minimax/minimax-m1', 'minimax-m1', false],
  ['qwen/qwen3-235b-a22b-thinking-2507', 'hermes', true],
  ['qwen/qwen3.6-max-preview-20260420', 'qwen3-coder', true],
  ['qwen/qwen-2.5-72b-instruct', 'hermes', false],
  ['baidu/ernie-4.5-21b-a3b-thinking', 'hermes', true],
  ['baidu/ernie-4.5-300b-a47b', 'hermes', false],
  ['stepfun/step-3.5-flash', 'qwen3-coder', true],
  ['xiaomimimo/mimo-v2-flash', 'qwen3-coder', false],
  ['perplexity/r1-1776', 'deepseek-v3', true],
  ['liquid/lfm2-8b-a1b', 'pythonic', false],
  ['nousresearch/hermes-4-70b', 'hermes', false],
  ['arcee-ai/trinity-mini', 'hermes', false],
  ['meituan/longcat-flash-chat:free', 'hermes', false],
  // Together
  ['meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo', 'llama3-json', false],
  ['meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8', 'pythonic', false],
  ['Qwen/Qwen2.5-72B-Instruct-Turbo', 'hermes', false],
  ['moonshotai/Kimi-K2-Instruct-0905', 'kimi-k2', false],
  ['deepseek-ai/DeepSeek-V3.1-Terminus', 'deepseek-v3', false],
  ['Qwen/Qwen3-Next-80B-A3B-Instruct', 'hermes', false],
  ['Qwen/Qwen3-Next-80B-A3B-Thinking', 'hermes', true],
  // Fireworks
  ['accounts/fireworks/models/deepseek-v3p1', 'deepseek-v3', false],
  ['accounts/fireworks/models/deepseek-v3p2', 'deepseek', false],
  ['accounts/fireworks/models/qwen3-coder-480b-a35b-instruct', 'qwen3-coder', false],
  ['accounts/fireworks/models/glm-4p6', 'glm', false],
  ['accounts/fireworks/models/llama-v3p3-70b-instruct', 'llama3-json', false],
  ['accounts/fireworks/models/kimi-k2-instruct-0905', 'kimi-k2', false],
  ['accounts/fireworks/models/minimax-m2', 'minimax-m2', true],
  // Groq
  ['llama-3.3-70b-versatile', 'llama3-json', false],
  ['llama-3.1-8b-instant', 'llama3-json', false],
  ['meta-llama/llama-4-scout-17b-16e-instruct', 'pythonic', false],
  ['qwen/qwen3-32b', 'hermes', false],
  ['deepseek-r1-distill-llama-70b', 'deepseek-v3', true],
  ['qwen-qwq-32b', 'hermes', true],
  // Ollama
  ['qwen3-coder:latest', 'qwen3-coder', false],
  ['qwen2.5-coder:7b-instruct-q4_K_M', 'hermes', false],
  ['qwen3:30b-a3b-thinking-2507-q4_K_M', 'hermes', true],
  ['qwen3.5:35b-a3b', 'qwen3-coder', true],
  ['llama3.2:3b', 'pythonic', false],
  ['llama3.1:8b', 'llama3-json', false],
  ['deepseek-r1:8b', 'deepseek-v3', true],
  ['deepseek-v3.1:671b-cloud', 'deepseek-v3', false],
  ['glm-4.6:cloud', 'glm', false],
  ['gpt-oss:20b', 'gpt-oss', false],
  ['granite4:micro', 'hermes', false],
  ['granite3.3:8b', 'granite', false],
  ['phi4-mini:3.8b', 'phi-4-mini', false],
  ['mistral-small3.2:24b', 'mistral', false],
  ['magistral:24b', 'mistral', false],
  ['qwq:32b', 'hermes', true],
  ['hermes3:8b', 'hermes', false],
  ['hf.co/unsloth/Qwen3-Coder-30B-A3B-Instruct-GGUF:Q4_K_M', 'qwen3-coder', false],
  // LM Studio
  ['qwen/qwen3-coder-30b', 'qwen3-coder', false],
  ['lmstudio-community/Qwen3-Coder-30B-A3B-Instruct-MLX-4bit', 'qwen3-coder', false],
  ['mlx-community/GLM-4.5-Air-4bit', 'glm', false],
  ['bartowski/Llama-3.2-3B-Instruct-GGUF', 'pythonic', false],
  // vLLM / SGLang, Hugging Face ids
  ['Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8', 'qwen3-coder', false],
  ['Qwen/Qwen3-30B-A3B-Instruct-2507', 'hermes', false],
  ['Qwen/QwQ-32B-AWQ', 'hermes', true],
  ['Qwen/QwQ-32B-Preview', 'hermes', false],
  ['Qwen/Qwen3.5-397B-A17B', 'qwen3-coder', true],
  ['zai-org/GLM-4.5', 'glm', false],
  ['zai-org/GLM-4.7-Flash', 'glm', true],
  ['zai-org/GLM-4.5V', 'glm', false],
  ['zai-org/GLM-5', 'glm', true],
  ['deepseek-ai/DeepSeek-V3-0324', 'deepseek-v3', false],
  ['deepseek-ai/DeepSeek-V3.2-Speciale', 'deepseek', true],
  ['deepseek-ai/DeepSeek-R1-0528-Qwen3-8B', 'deepseek-v3', true],
  ['MiniMaxAI/MiniMax-M2.5', 'minimax-m2', true],
  ['MiniMaxAI/MiniMax-M1-80k', 'minimax-m1', false],
  ['stepfun-ai/step3', 'step3', true],
  ['stepfun-ai/Step-3.7-Flash', 'qwen3-coder', true],
  ['NousResearch/Hermes-3-Llama-3.1-8B', 'hermes', false],
  ['NousResearch/Hermes-2-Pro-Mistral-7B', 'hermes', false],
  ['ibm-granite/granite-3.1-8b-instruct', 'granite', false],
  ['ibm-granite/granite-4.0-h-small', 'hermes', false],
  ['internlm/internlm2_5-7b-chat', 'internlm', false],
  ['internlm/Intern-S1', 'internlm', false],
  ['ai21labs/AI21-Jamba-Mini-1.7', 'jamba', false],
  ['tencent/Hunyuan-A13B-Instruct', 'hunyuan', false],
  ['swiss-ai/Apertus-8B-Instruct-2509', 'apertus', false],
  ['ai-sage/GigaChat3-10B-A1.8B', 'gigachat', false],
  ['Salesforce/Llama-xLAM-2-8b-fc-r', 'xlam', false],
  ['Salesforce/xLAM-2-32b-fc-r', 'xlam', false],
  ['allenai/Olmo-3-7B-Instruct', 'pythonic', false],
  ['allenai/Olmo-3-7B-Think', 'pythonic', true],
  ['LiquidAI/LFM2.5-1.2B-Instruct', 'pythonic', false],
  ['mistralai/Devstral-Small-2507', 'mistral', false],
  ['mistralai/Magistral-Small-2509', 'mistral', false],
  ['nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16', 'qwen3-coder', true],
  ['nvidia/nemotron-3-super-120b-a12b', 'qwen3-coder', true],
  ['poolside/Laguna-XS', 'glm', false],
  ['baidu/ERNIE-4.5-21B-A3B-PT', 'hermes', false],
  ['meituan-longcat/LongCat-Flash-Chat', 'hermes', false],
  ['Qwen/Qwen3-VL-30B-A3B-Thinking', 'hermes', true],
  ['meta-llama/Llama-3.2-11B-Vision-Instruct', 'llama3-json', false],
  // Bedrock
  ['deepseek.v3-v1:0', 'deepseek-v3', false],
  ['qwen.qwen3-coder-480b-a35b-v1:0', 'qwen3-coder', false],
  ['qwen.qwen3-32b-v1:0', 'hermes', false],
  ['openai.gpt-oss-120b-1:0', 'gpt-oss', false],
  ['us.meta.llama3-1-70b-instruct-v1:0', 'llama3-json', false],
  ['us.meta.llama4-scout-17b-instruct-v1:0', 'pythonic', false],
  ['mistral.mistral-large-2407-v1:0', 'mistral', false],
  ['moonshot.kimi-k2-thinking', 'kimi-k2', false],
  ['minimax.minimax-m2', 'minimax-m2', true],
  // Cloudflare Workers AI
  ['@cf/openai/gpt-oss-120b', 'gpt-oss', false],
  ['@cf/qwen/qwen3-30b-a3b-fp8', 'hermes', false],
  ['@cf/qwen/qwq-32b', 'hermes', true],
  ['@cf/qwen/qwen2.5-coder-32b-instruct', 'hermes', false],
  ['@cf/deepseek-ai/deepseek-r1-distill-qwen-32b', 'deepseek-v3', true],
  ['@cf/meta/llama-3.3-70b-instruct-fp8-fast', 'llama3-json', false],
  ['@cf/meta/llama-3.2-3b-instruct', 'pythonic', false],
  ['@cf/meta/llama-4-scout-17b-16e-instruct', 'pythonic', false],
  ['@cf/mistralai/mistral-small-3.1-24b-instruct', 'mistral', false],
  ['@cf/ibm-granite/granite-4.0-h-micro', 'hermes', false],
  ['@hf/nousresearch/hermes-2-pro-mistral-7b', 'hermes', false],
  ['@cf/zai-org/glm-4.7-flash', 'glm', true],
  // DashScope
  ['qwen-plus', 'hermes', false],
  ['qwen-max-latest', 'hermes', false],
  ['qwen-turbo-2025-04-28', 'hermes', false],
  ['qwen3-max', 'hermes', false],
  ['qwq-plus', 'hermes', true],
  ['qwen3.5-plus', 'qwen3-coder', true],
  ['qwen3-coder-480b-a35b-instruct', 'qwen3-coder', false],
  // Moonshot
  ['kimi-k2-0711-preview', 'kimi-k2', false],
  ['kimi-k2-turbo-preview', 'kimi-k2', false],
  ['kimi-k2-thinking-turbo', 'kimi-k2', false],
  ['kimi-k2.6', 'kimi-k2', true],
  // Zhipu
  ['glm-4.5', 'glm', false],
  ['glm-4.5-air', 'glm', false],
  ['glm-4.5-flash', 'glm', false],
  ['glm-4.7', 'glm', true],
  ['glm-4.6v-flash', 'glm', false],
  ['glm-5.1', 'glm', true],
  // DeepSeek's own API, and its later models
  ['deepseek-v4', 'deepseek', false],
  ['deepseek-v4.1-thinking', 'deepseek', true],
  // Mistral's API
  ['mistral-large-latest', 'mistral', false],
  ['codestral-2508', 'mistral', false],
  ['ministral-8b-latest', 'mistral', false],
  ['open-mistral-nemo', 'mistral', false],
  ['devstral-medium-2507', 'mistral', false],
]

/** Ids no pack covers. */
export const unknownIds: readonly string[] = [
  'gpt-4o',
  'gpt-4o-mini-2024-07-18',
  'gpt-5',
  'o3',
  'o4-mini',
  'claude-sonnet-4-5',
  'claude-3-5-sonnet-20241022',
  'anthropic/claude-opus-4.1',
  'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
  'gemini-2.5-pro',
  'google/gemma-3-27b-it',
  'grok-4',
  'text-embedding-3-large',
  'text-embedding-ada-002',
  'Qwen/Qwen3-Embedding-8B',
  'Qwen/Qwen3-Reranker-4B',
  'mistral-embed',
  'mistral-ocr-latest',
  'deepseek-ai/DeepSeek-OCR',
  'meta-llama/Llama-Guard-4-12B',
  'Qwen/Qwen3Guard-Gen-8B',
  'nomic-embed-text',
  'whisper-large-v3',
  'deepseek-coder-v2',
  'moonshot-v1-8k',
  'glm-4-plus',
  'THUDM/GLM-4-9B-0414',
  'zai-org/GLM-Z1-32B-0414',
  'MiniMaxAI/MiniMax-M3',
  'MiniMaxAI/MiniMax-Text-01',
  'ai-sage/GigaChat3.5-Lightning',
  'nvidia/Llama-3_3-Nemotron-Super-49B-v1_5',
  'nvidia/NVIDIA-Nemotron-Nano-9B-v2',
  'microsoft/Phi-4-mini-reasoning',
  'microsoft/phi-4',
  'meta-llama/Meta-Llama-3-8B-Instruct',
  'command-r-plus',
  'tngtech/deepseek-r1t2-chimera:free',
  'openrouter/auto',
]
