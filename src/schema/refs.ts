/**
 * `$ref`s for coercion: a JSON pointer (`#/$defs/x`), an anchor (`#name`,
 * from `$anchor` or `$dynamicAnchor`) or another resource of the same schema
 * by its `$id` (`int.json`, `https://example.com/int.json#/…`). References
 * are read against the root's `$id`, not each one's nearest: coercion only
 * shapes a value (the validator, which resolves exactly, has the last word).
 */
import { isPlainObject } from '../values/own.js'

type Schema = Record<string, unknown>

interface Index {
  /** Schemas by the absolute URI of their `$id`, fragment removed. */
  ids: Map<string, Schema>
  anchors: Map<string, Schema>
  base: string
}

/** A stand-in base for a root without `$id`: relative `$id`s resolve against it. */
const defaultBase = 'https://toolsieve.invalid/schema.json'
/** Schema objects indexed per root at most; a larger schema's ids past it are not found (coercion only). */
const maxIndexed = 10_000

const indexes = new WeakMap<Schema, Index>()

function absolute(uri: string, base: string): string | null {
  try {
    const u = new URL(uri, base)
    u.hash = ''
    return u.href
  } catch {
    return null
  }
}

function indexOf(root: Schema): Index {
  let index = indexes.get(root)
  if (index !== undefined) return index
  const base = (typeof root.$id === 'string' && absolute(root.$id, defaultBase)) || defaultBase
  index = { ids: new Map(), anchors: new Map(), base }
  const stack: Array<[unknown, string]> = [[root, base]]
  for (let n = 0; stack.length > 0 && n < maxIndexed; n++) {
    const [s, at] = stack.pop()!
    if (Array.isArray(s)) {
      for (const x of s) stack.push([x, at])
      continue
    }
    if (!isPlainObject(s)) continue
    let here = at
    if (typeof s.$id === 'string' && !s.$id.startsWith('#')) {
      here = absolute(s.$id, at) ?? at
      if (!index.ids.has(here)) index.ids.set(here, s)
    }
    for (const k of ['$anchor', '$dynamicAnchor']) {
      const a = s[k]
      if (typeof a === 'string' && !index.anchors.has(a)) index.anchors.set(a, s)
    }
    for (const k of Object.keys(s)) if (k !== 'enum' && k !== 'const' && k !== 'default' && k !== 'examples') stack.push([s[k], here])
  }
  indexes.set(root, index)
  return index
}

function pointerIn(at: unknown, fragment: string): unknown {
  for (const raw of fragment.split('/').slice(1)) {
    let token: string
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    } catch {
      return undefined
    }
    if (!isPlainObject(at) && !Array.isArray(at)) return undefined
    at = (at as Schema)[token]
  }
  return at
}

/** The schema `ref` points at from `root`; undefined when it is not in the schema. */
export function lookup(root: Schema, ref: string): unknown {
  const hash = ref.indexOf('#')
  const uri = hash === -1 ? ref : ref.slice(0, hash)
  const fragment = hash === -1 ? '' : ref.slice(hash + 1)
  let resource: unknown = root
  if (uri !== '') {
    const index = indexOf(root)
    const abs = absolute(uri, index.base)
    resource = abs === index.base ? root : abs === null ? undefined : index.ids.get(abs)
    if (resource === undefined) return undefined
  }
  if (fragment === '' || fragment.startsWith('/')) return pointerIn(resource, fragment)
  return indexOf(root).anchors.get(fragment)
}
