/** Deriving a grammar from another: added names and frames, merged settings. */
import type { Grammar, GrammarPatch, Role, RoleName } from './types.js'
import { withDerived } from './derived.js'
import { at, boolean, deepFreeze, describe, frameList, keyOf, normalize, object, patchKeys, report, roleKeys, roleNames, strings, validateGrammar, type Obj } from './validate.js'

/**
 * Derive a grammar from `base`. Role names in `wrapper`/`invoke`/`parameter`
 * are appended (a name already present, compared case-insensitively when the
 * result is `caseInsensitive`, is not repeated; its frame lists are united);
 * `frames` are appended, a frame named like a base frame replacing it in
 * place; `rawTextParameters` are appended without repeats;
 * `attributes`/`repairs`/`limits`/`markdown` are shallow-merged; `name` and
 * `caseInsensitive` are replaced. The result is validated.
 *
 * @example extendGrammar(defaultGrammar, { wrapper: ['function_calls', 'tool_use'] })
 * @throws {GrammarError} for a key not in {@link GrammarPatch} (field
 *   `patch.<key>`), a malformed patch entry (`patch.wrapper[0]`, …), or an
 *   invalid result (field in the extended grammar, e.g. `roles.invoke[1]`).
 */
export function extendGrammar(base: Grammar, patch: GrammarPatch): Grammar {
  const start = validateGrammar(base)
  return report(() => {
    const raw = object(patch, 'patch', patchKeys)
    const defined = (key: keyof GrammarPatch): boolean => raw[key] !== undefined

    const frames = [...start.frames]
    for (const added of defined('frames') ? frameList(raw.frames, 'patch.frames', false) : []) {
      const i = frames.findIndex((f) => f.name === added.name)
      if (i < 0) frames.push(added)
      else frames[i] = added
    }
    const caseInsensitive = boolean(raw.caseInsensitive, 'patch.caseInsensitive', start.caseInsensitive ?? true)
    const frameNames = new Set(frames.map((f) => f.name))

    const merged = {} as Record<Role, RoleName[]>
    for (const role of roleKeys) {
      const out = [...start.roles[role]]
      const additions = defined(role) ? roleNames(raw[role], at('patch', role), frameNames, false) : []
      for (const entry of additions) {
        const i = out.findIndex((e) => keyOf(e, caseInsensitive) === keyOf(entry, caseInsensitive))
        const existing = out[i]
        if (existing === undefined) out.push(entry)
        else out[i] = unite(existing, entry)
      }
      merged[role] = out
    }

    const extraRaw = defined('rawTextParameters') ? strings(raw.rawTextParameters, 'patch.rawTextParameters') : []
    const section = (key: keyof typeof sectionFields): Obj => ({
      ...start[key],
      ...(defined(key) ? object(raw[key], at('patch', key), sectionFields[key]) : {}),
    })
    const next = {
      name: defined('name') ? raw.name : start.name,
      roles: merged,
      frames,
      caseInsensitive,
      attributes: section('attributes'),
      values: section('values'),
      repairs: section('repairs'),
      limits: section('limits'),
      markdown: section('markdown'),
      rawTextParameters: [...new Set([...(start.rawTextParameters ?? []), ...extraRaw])],
      reasoning: section('reasoning'),
      // blocks read whole are replaced, as a whole
      ...(defined('blocks') ? { blocks: raw.blocks } : start.blocks === undefined ? {} : { blocks: start.blocks }),
      ...(defined('invokeBlocks') ? { invokeBlocks: raw.invokeBlocks } : start.invokeBlocks === true ? { invokeBlocks: true } : {}),
    }
    return deepFreeze(withDerived(normalize(next)))
  }, `in grammar extended from ${describe(start.name)}`)
}

/** The fields of each section a patch may set. */
const sectionFields = {
  attributes: ['name', 'string', 'from'],
  values: ['strings', 'containers', 'padding'],
  repairs: ['missingOpeningWrapper', 'unclosedWrapper', 'unclosedCdata'],
  limits: ['captureLimit'],
  markdown: ['fences', 'codeSpans'],
  reasoning: ['open', 'close'],
} as const

/** One entry for a name given twice: recognised in every frame either entry allows. */
function unite(existing: RoleName, added: RoleName): RoleName {
  if (typeof existing === 'string') return existing
  if (typeof added === 'string' || !existing.frames || !added.frames) return { name: existing.name }
  return { name: existing.name, frames: [...new Set([...existing.frames, ...added.frames])] }
}
