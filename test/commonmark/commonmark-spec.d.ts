/** Types for `commonmark-spec`, which ships none. */
declare module 'commonmark-spec' {
  export interface SpecExample {
    markdown: string
    html: string
    section: string
    number: number
  }
  export const tests: SpecExample[]
  export const text: string
  const spec: { tests: SpecExample[]; text: string }
  export default spec
}
