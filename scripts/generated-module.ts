/**
 * Writes a generated module, or with `--check` only compares it and exits 1
 * when it differs: what the data generators (`generate-default-grammar.ts`,
 * `generate-dialect-data.ts`) share.
 */
import { readFileSync, writeFileSync } from 'node:fs'

/** `text` into `target` (`name` in messages), or, when `check`, a failure naming `from` and the `command` that writes it. */
export function writeGenerated(target: string, text: string, check: boolean, name: string, from: string, command: string): void {
  let current: string | undefined
  try {
    current = readFileSync(target, 'utf8')
  } catch {
    current = undefined
  }
  if (current === text) {
    console.log(`${name} is up to date`)
    return
  }
  if (check) {
    console.error(`${name} differs from ${from}: run \`${command}\``)
    process.exit(1)
  }
  writeFileSync(target, text)
  console.log(`wrote ${name}`)
}
