/**
 * Rule 7: argument objects have no prototype pitfalls. A parameter named
 * `__proto__`, `constructor` or `hasOwnProperty` is an ordinary own key;
 * plain assignment would set the prototype (`__proto__`) instead.
 */
import { JsonNumber } from './json-number.js'

/** Adds `key` as an own, enumerable data property, whatever its name. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  // an assignment makes the same property unless Object.prototype has the name (`__proto__` is a setter there,
  // and a polluted prototype could add others); defining a property with a descriptor costs far more per key
  if (!(key in Object.prototype)) obj[key] = value
  else Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true })
}

/** A plain `{}`, so consumers get an ordinary object; keys go in with {@link setOwn}. */
export function plainObject(): Record<string, unknown> {
  return {}
}

/** An object that is not an array, nor a number kept with its digits ({@link JsonNumber}). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false
  // a revoked proxy throws on both checks; nothing can be read from it, so it is no object to read
  try {
    return !Array.isArray(v) && !(v instanceof JsonNumber)
  } catch {
    return false
  }
}
