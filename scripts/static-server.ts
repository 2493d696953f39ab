/**
 * A tiny static file server for a built page (the playground): GET and HEAD of
 * files under `root`, `/` is `index.html`, nothing outside `root`. For local
 * viewing and the browser test, bound to 127.0.0.1.
 */
import { createReadStream, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { extname, join, resolve, sep } from 'node:path'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
}

/** Serves `root` on 127.0.0.1:`port` (0: any free port); resolves once listening, with the server and its URL. */
export function serveStatic(root: string, port = 0): Promise<{ server: Server; url: string }> {
  const base = resolve(root)
  const server = createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end()
      return
    }
    let path: string
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
    } catch {
      response.writeHead(400).end()
      return
    }
    const file = resolve(join(base, path.endsWith('/') ? `${path}index.html` : path))
    let size: number | undefined
    try {
      const stat = statSync(file)
      if (stat.isFile()) size = stat.size
    } catch {
      size = undefined
    }
    if ((file !== base && !file.startsWith(base + sep)) || size === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found')
      return
    }
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'content-length': size, 'cache-control': 'no-cache' })
    if (request.method === 'HEAD') response.end()
    else createReadStream(file).pipe(response)
  })
  return new Promise((done, fail) => {
    server.once('error', fail)
    server.listen(port, '127.0.0.1', () => {
      const address = server.address()
      const actual = typeof address === 'object' && address !== null ? address.port : port
      done({ server, url: `http://127.0.0.1:${actual}/` })
    })
  })
}
