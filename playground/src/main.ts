/**
 * The page: reads the form, runs the sieve (`run.ts`) and shows the result.
 * Runs again on every change, shortly after typing stops. Everything the user
 * typed is put in the page with `textContent`, never as HTML.
 */
import type { Grammar } from 'toolsieve'
import { cut } from './chunking.js'
import { dialects, grammarJson } from './dialects.js'
import { blocks } from './highlight.js'
import { run, type RunResult } from './run.js'
import { sample } from './sample.js'
import { describeError, readChunking, readGrammar, readOptions, type Fields } from './settings.js'
import { decodeShared, encodeShared } from './share.js'

const byId = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id)
  if (element === null) throw new Error(`the page has no #${id}`)
  return element as T
}
const field = (id: string): HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement => byId(id)
const checked = (id: string): boolean => byId<HTMLInputElement>(id).checked

const input = byId<HTMLTextAreaElement>('input')
const dialect = byId<HTMLSelectElement>('dialect')
const grammarText = byId<HTMLTextAreaElement>('grammar')
const grammarError = byId('grammar-error')
const optionsError = byId('options-error')
const summary = byId('summary')

for (const d of dialects) dialect.append(new Option(d.label, d.id))
input.value = sample
grammarText.value = grammarJson(dialects[0]!.grammar)
restore()

function chosenDialect(): Grammar {
  return (dialects.find((d) => d.id === dialect.value) ?? dialects[0]!).grammar
}

// The grammar is validated again only when its text changes: validating and compiling a grammar costs more than a run.
let grammarCache: { text: string; grammar: Grammar } | undefined
function currentGrammar(): Grammar {
  const text = grammarText.value
  if (grammarCache?.text !== text) {
    const picked = chosenDialect()
    grammarCache = { text, grammar: text === grammarJson(picked) ? picked : readGrammar(text) }
  }
  return grammarCache.grammar
}

function fields(): Fields {
  return {
    chunking: field('chunking').value,
    size: field('size').value,
    seed: field('seed').value,
    longest: field('longest').value,
    streamArguments: checked('streamArguments'),
    captureLimit: field('captureLimit').value,
    reasoning: checked('reasoning'),
    startInReasoning: checked('startInReasoning'),
    reasoningCalls: field('reasoningCalls').value,
    strict: checked('strict'),
    onInvalid: field('onInvalid').value,
    quoted: field('quoted').value,
    tools: field('tools').value,
  }
}

/** The page as a link's fragment left it (see share.ts); fields it does not name keep their defaults. */
function restore(): void {
  const shared = decodeShared(location.hash)
  if (shared === undefined) return
  input.value = shared.input
  if (dialects.some((d) => d.id === shared.dialect)) dialect.value = shared.dialect
  grammarText.value = shared.grammar ?? grammarJson(chosenDialect())
  for (const [key, value] of Object.entries(shared.fields)) {
    const element = document.getElementById(key)
    if (element instanceof HTMLInputElement && element.type === 'checkbox') element.checked = value === true
    else if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) element.value = String(value)
  }
}

function share(): void {
  const grammar = grammarText.value === grammarJson(chosenDialect()) ? undefined : grammarText.value
  const hash = encodeShared({ input: input.value, dialect: dialect.value, fields: fields(), ...(grammar === undefined ? {} : { grammar }) })
  history.replaceState(null, '', hash)
  const link = byId<HTMLInputElement>('link')
  link.value = location.href
  link.hidden = false
  void navigator.clipboard?.writeText(location.href).catch(() => {})
}

let last: RunResult | undefined

function update(): void {
  grammarError.textContent = ''
  optionsError.textContent = ''
  const f = fields()
  for (const el of document.querySelectorAll<HTMLElement>('[data-for-chunking]')) el.hidden = el.dataset.forChunking !== f.chunking
  let grammar: Grammar
  try {
    grammar = currentGrammar()
  } catch (error) {
    grammarError.textContent = describeError(error)
    return clear('Not run: the grammar is not valid.')
  }
  let result: RunResult
  let pushes: string[]
  try {
    pushes = cut(input.value, readChunking(f))
    result = run(pushes, readOptions(f, grammar))
  } catch (error) {
    optionsError.textContent = describeError(error)
    return clear('Not run: an option is not valid.')
  }
  last = result
  const problems = result.problems.length
  summary.textContent = [
    `${plural(pushes.length, 'push', 'pushes')}`,
    plural(result.events.length, 'event'),
    plural(result.calls.length, 'call'),
    plural(problems, 'diagnostic'),
    result.lossless ? 'every input character came out once' : 'INPUT LOST OR REORDERED: please report this input',
  ].join(' · ')
  summary.dataset.lossless = String(result.lossless)
  showSpans(result, pushes)
  showCalls(result)
  showProblems(result)
  byId('text').textContent = result.text
  byId('reasoning-out').textContent = result.reasoning
  showEvents()
}

function clear(why: string): void {
  last = undefined
  summary.textContent = why
  delete summary.dataset.lossless
  for (const id of ['spans', 'calls', 'problems', 'text', 'reasoning-out', 'events']) byId(id).replaceChildren()
}

function showSpans(result: RunResult, pushes: readonly string[]): void {
  const text = input.value
  const out = byId('spans')
  out.replaceChildren()
  // Where each push after the first began, when asked: a thin bar that adds no text (textContent stays the input).
  const cuts: number[] = []
  if (checked('show-cuts')) for (let i = 0, at = 0; i + 1 < pushes.length; i++) cuts.push((at += pushes[i]!.length))
  for (const { piece, stretches } of blocks(result.pieces, result.problems, cuts)) {
    const outer = document.createElement(piece.kind === 'tool-call' ? 'mark' : 'span')
    outer.dataset.kind = piece.kind
    outer.dataset.start = String(piece.span.start)
    outer.dataset.end = String(piece.span.end)
    if (piece.call !== undefined) {
      const call = result.calls[piece.call]!
      outer.id = `span-call-${piece.call}`
      outer.title = `tool call ${call.name} [${piece.span.start}, ${piece.span.end})`
    }
    for (const s of stretches) {
      if (s.cut) {
        const bar = document.createElement('span')
        bar.className = 'cut'
        bar.setAttribute('aria-hidden', 'true')
        outer.append(bar)
      }
      const slice = text.slice(s.start, s.end)
      if (s.problems.length === 0) {
        outer.append(slice)
        continue
      }
      const mark = document.createElement('mark')
      mark.dataset.kind = 'problem'
      mark.dataset.problems = s.problems.join(' ')
      mark.title = s.problems.map((n) => `${result.problems[n]!.code}: ${result.problems[n]!.message}`).join('\n')
      mark.textContent = slice
      outer.append(mark)
    }
    out.append(outer)
  }
}

function showCalls(result: RunResult): void {
  const list = byId('calls')
  list.replaceChildren()
  result.calls.forEach((call, n) => {
    const item = document.createElement('li')
    item.setAttribute('aria-label', `Tool call ${call.name}`)
    const name = document.createElement('strong')
    name.className = 'call-name'
    name.textContent = call.name
    const where = document.createElement('a')
    where.href = `#span-call-${n}`
    where.textContent = `span [${call.span.start}, ${call.span.end})`
    const id = document.createElement('code')
    id.textContent = call.id
    const args = document.createElement('pre')
    args.className = 'call-arguments'
    args.setAttribute('aria-label', `Arguments of ${call.name}`)
    args.textContent = call.arguments
    item.append(name, ' ', id, ' ', where, args)
    for (const d of call.diagnostics ?? []) item.append(problemLine(d))
    list.append(item)
  })
}

function showProblems(result: RunResult): void {
  const list = byId('problems')
  list.replaceChildren()
  for (const p of result.problems) {
    const item = document.createElement('li')
    item.append(problemLine(p))
    list.append(item)
  }
}

function problemLine(p: RunResult['problems'][number]): HTMLElement {
  const line = document.createElement('p')
  line.className = 'problem'
  const where = p.path === undefined ? '' : ` at ${p.path === '' ? '(the whole input)' : p.path}`
  line.textContent = `${p.type} ${p.code} [${p.span.start}, ${p.span.end})${where}: ${p.message}`
  return line
}

function showEvents(): void {
  if (last === undefined) return
  const rows: unknown[] = checked('by-push') ? last.pushes : last.events
  // One event (or one push) a line: pretty-printing every field would bury the events among braces.
  byId('events').textContent = rows.length === 0 ? '[]' : `[\n${rows.map((row) => `  ${JSON.stringify(row)}`).join(',\n')}\n]`
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`
}

let timer: ReturnType<typeof setTimeout> | undefined
function soon(): void {
  clearTimeout(timer)
  timer = setTimeout(update, 150)
}

byId('controls').addEventListener('input', soon)
byId('controls').addEventListener('change', soon)
byId('controls').addEventListener('submit', (event) => {
  event.preventDefault()
  clearTimeout(timer)
  update()
})
dialect.addEventListener('change', () => {
  grammarText.value = grammarJson(chosenDialect())
})
byId('reset-grammar').addEventListener('click', () => {
  grammarText.value = grammarJson(chosenDialect())
  clearTimeout(timer)
  update()
})
byId('share').addEventListener('click', share)
byId('show-cuts').addEventListener('change', update)
byId('by-push').addEventListener('change', showEvents)
byId('copy-events').addEventListener('click', () => {
  void navigator.clipboard?.writeText(byId('events').textContent ?? '').catch(() => {})
})

update()
