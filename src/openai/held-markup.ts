/**
 * The rescued calls `onConflict: 'prefer-native'` held when the upstream
 * broke off, as text. A failed turn runs no call, and with no native call to
 * stand for them, dropping them would lose the characters they were read
 * from: each complete call goes out as its markup. A call the break cut is
 * not here (the sieve's abort gives its markup), and after a native call the
 * gate gives nothing. The shared gate holds only the calls, so the text
 * after them went out already: the markup comes at the break, not where it
 * stood (the Messages adapter, which holds that text too, can put it back).
 */
import type { AdapterAction, NativeConflictGate } from '../adapters/index.js'

export function heldMarkup(gate: NativeConflictGate): AdapterAction[] {
  return gate.finish().flatMap((a): AdapterAction[] => (a.type === 'call-end' ? [{ type: 'text', text: a.call.raw }] : []))
}
