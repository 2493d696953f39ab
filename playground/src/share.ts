/**
 * A link that opens the page as it is: the input, the settings and an edited
 * grammar, in the URL's fragment (which never reaches a server), as
 * base64url of UTF-8 JSON. For bug reports: paste, pick, share.
 */
import type { Fields } from './settings.js'

export interface Shared {
  input: string
  dialect: string
  /** Only when it differs from the dialect's own. */
  grammar?: string
  fields: Partial<Fields>
}

const prefix = '#s='

export function encodeShared(state: Shared): string {
  const bytes = new TextEncoder().encode(JSON.stringify(state))
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return prefix + btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The state in a fragment, or undefined when there is none or it is damaged (the page then starts as usual). */
export function decodeShared(hash: string): Shared | undefined {
  if (!hash.startsWith(prefix)) return undefined
  try {
    const binary = atob(hash.slice(prefix.length).replace(/-/g, '+').replace(/_/g, '/'))
    const state = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))) as unknown
    if (typeof state !== 'object' || state === null) return undefined
    const s = state as Record<string, unknown>
    if (typeof s.input !== 'string' || typeof s.dialect !== 'string' || typeof s.fields !== 'object' || s.fields === null) return undefined
    if (s.grammar !== undefined && typeof s.grammar !== 'string') return undefined
    return state as Shared
  } catch {
    return undefined
  }
}
