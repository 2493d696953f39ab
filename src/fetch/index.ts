/**
 * toolsieve/fetch: a `fetch` that repairs OpenAI-compatible answers in
 * flight (`new OpenAI({ fetch: sieveFetch() })`), and the repair itself for
 * servers that hold a request body and an upstream `Response`. Imports no
 * Node module: runs in browsers and Workers too.
 */
export { sieveFetch } from './fetch.js'
export { repairResponse } from './repair.js'
export { routeOf, requestOptions, type RouteKind, type RequestCarried } from './request.js'
export type { RepairReport, SieveFetchOptions } from './options.js'
