/**
 * Where a request goes upstream: the upstream's path prefix, then the
 * request's path, then its query exactly as the client wrote it. The path
 * never leaves the prefix: a `..` segment, however written (`%2e%2e`, `.%2E`,
 * between backslashes or `%2f`, which some servers read as slashes), is
 * refused, a `.` segment is dropped, and a fragment (which a client should
 * never send) never goes upstream.
 */

/** A request's upstream target, or why it has none. */
export type Target =
  | {
      ok: true
      /** The upstream URL, for messages; the query in it may be re-encoded. */
      url: URL
      /** What goes on the request line: prefix, path and the query as given. */
      path: string
      /** The request's path alone, for the log: a query may carry a key (`?key=…`). */
      logPath: string
    }
  | { ok: false; logPath: string; message: string }

/** Separators a server might split a path at: `/`, `\`, and their percent-encodings. */
const SEPARATOR = /\/|\\|%2f|%5c/i

/** A segment that is `.` or `..` once its `%2e`s are read as dots. */
const dotSegment = (segment: string): 0 | 1 | 2 => {
  const dots = segment.replace(/%2e/gi, '.')
  return dots === '.' ? 1 : dots === '..' ? 2 : 0
}

/** The upstream target of a request target (`req.url`: path, query, maybe a fragment). */
export function upstreamTarget(upstream: URL, requestTarget: string): Target {
  const hash = requestTarget.indexOf('#')
  const noFragment = hash === -1 ? requestTarget : requestTarget.slice(0, hash)
  const question = noFragment.indexOf('?')
  const pathname = question === -1 ? noFragment : noFragment.slice(0, question)
  const query = question === -1 ? '' : noFragment.slice(question)
  const logPath = pathname
  if (!pathname.startsWith('/')) return { ok: false, logPath, message: 'the request target must be a path starting with /' }
  const kept: string[] = []
  for (const segment of pathname.slice(1).split('/')) {
    const parts = segment.split(SEPARATOR)
    if (parts.some((p) => dotSegment(p) === 2)) return { ok: false, logPath, message: 'the path may not hold a .. segment' }
    // `.` on its own between slashes is dropped; inside a segment split only by `\` or `%2f` it is left to the upstream (it cannot climb).
    if (dotSegment(segment) !== 1) kept.push(segment)
  }
  const prefix = upstream.pathname.replace(/\/+$/, '')
  const path = `${prefix}/${kept.join('/')}${query}`
  const url = new URL(upstream.href)
  url.pathname = `${prefix}/${kept.join('/')}`
  url.search = query
  return { ok: true, url, path, logPath }
}
