/**
 * `toolsieve proxy --upstream URL`: an OpenAI-compatible endpoint in front
 * of one that leaks tool calls into `content`; the agent only changes its
 * base URL. Stops gracefully on SIGTERM and SIGINT.
 */
import { exit, integerFlag, parseCommand, UsageError } from './args.js'
import { startProxy } from './proxy-server.js'

export const proxyHelp = `Usage: toolsieve proxy --upstream URL [options]

An OpenAI-compatible proxy. POST …/chat/completions and POST …/responses
(streamed or not) go to the upstream with the client's headers (hop-by-hop
ones dropped, the length set again), and the answer comes back repaired by
toolsieve/fetch's repairResponse (the repair of sieveFetch): tool calls
written into the text become tool_calls, the content is cleaned, reasoning
goes to reasoning_content. The request's tools, messages (input) and thinking
are the adapter's options. Everything else passes through unchanged and
streamed; upstream errors pass through as they are; an unreachable upstream
is a 502 with a JSON error.

What the repair cannot read passes through unrepaired rather than failed: a
request whose tools cannot be compiled (a draft-04 $schema, a remote $ref;
decided before the upstream is called, with a warning in the log), a
completion or chunk of another shape (content as an array of parts, a null
choice). A path never leaves the upstream's: a .. segment (also %2e%2e, \\..\\)
is a 400; the query goes as the client wrote it, a #fragment never goes.
An upstream silent for --upstream-timeout is a 504, or mid-stream an error
event after the text held so far (code upstream-timeout); so is an upstream
that fails mid-stream (upstream-failed), or an event stream line (CR, LF or
CRLF framed) over 64 MB (event-too-large).

Options:
  --upstream URL   the upstream's base URL; the request's path is appended
                   (--upstream https://api.deepseek.com, client base URL
                   http://127.0.0.1:8787/v1 → https://api.deepseek.com/v1/…)
  --port N         default 8787 (0: any free port)
  --host HOST      default 127.0.0.1
  --upstream-timeout S
                   seconds the upstream may stay silent, before its answer
                   starts and between its bytes (default 120; 0: no limit)
  --grace MS       on SIGTERM, how long requests in flight may finish
                   (default 10000)
  --quiet          no log line per request
  -h, --help       this help

Logs go to stderr: one line when listening, one per request (method, path
without its query, status, mode, calls rescued, diagnostics by code, why a
response was not repaired or stopped).

Exit: 0 after a graceful stop, 2 usage (no --upstream, a bad URL or
timeout, a port in use).
`

/** Runs `proxy` until SIGTERM or SIGINT; resolves to the exit code. */
export async function proxyCommandMain(argv: string[]): Promise<number> {
  const { values } = parseCommand(
    'proxy',
    argv,
    {
      upstream: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      grace: { type: 'string' },
      'upstream-timeout': { type: 'string' },
      quiet: { type: 'boolean' },
    },
    false,
  )
  if (values.help === true) {
    process.stdout.write(proxyHelp)
    return exit.ok
  }
  if (values.upstream === undefined) throw new UsageError('proxy: --upstream URL is required (see --help)')
  let upstream: URL
  try {
    upstream = new URL(values.upstream)
  } catch {
    throw new UsageError(`proxy: --upstream is not a URL: ${JSON.stringify(values.upstream)}`)
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new UsageError(`proxy: --upstream must be http: or https:, not ${upstream.protocol}`)
  const port = integerFlag('proxy', 'port', values.port, 8787, 0)
  if (port > 65535) throw new UsageError(`proxy: --port must be at most 65535, not ${port}`)
  const grace = integerFlag('proxy', 'grace', values.grace, 10_000, 0)
  const timeout = values['upstream-timeout'] === undefined ? 120 : Number(values['upstream-timeout'])
  // A number of seconds, fractions allowed; past setTimeout's 2^31-1 ms it would fire at once.
  if (values['upstream-timeout']?.trim() === '' || !Number.isFinite(timeout) || timeout < 0 || timeout * 1000 > 2 ** 31 - 1) {
    throw new UsageError(`proxy: --upstream-timeout must be a number of seconds from 0 to 2147483, not ${JSON.stringify(values['upstream-timeout'])}`)
  }
  const log = values.quiet === true ? null : undefined
  let proxy
  try {
    proxy = await startProxy({ upstream, port, host: values.host ?? '127.0.0.1', log, upstreamTimeoutMs: Math.round(timeout * 1000) })
  } catch (error) {
    throw new UsageError(`proxy: cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  process.stderr.write(`toolsieve proxy: listening on ${proxy.url}, upstream ${upstream.href}\n`)
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'))
    process.once('SIGINT', () => resolve('SIGINT'))
  })
  process.stderr.write(`toolsieve proxy: ${signal}: finishing requests in flight (at most ${grace} ms)\n`)
  await proxy.close(grace)
  process.stderr.write('toolsieve proxy: stopped\n')
  return exit.ok
}
