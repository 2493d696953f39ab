/**
 * An upstream item an adapter does not read, handed to it only so that it
 * keeps its place: `toolsieve/fetch` wraps the chunks of a shape the repair
 * does not read (content as a list of parts, a `null` choice) in one, and
 * the chat and Responses streams give it back, unchanged, after the text
 * their sieves held from before it. Internal: no public entry point takes
 * or gives one.
 */
export class Passed {
  constructor(readonly value: string) {}
}
