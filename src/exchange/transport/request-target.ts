/**
 * Request targets and headers: joins the base path, the request path and the query into the request line,
 * refuses paths that could send credentials to another host, and merges header sets with lower-cased names.
 */
import { TransportError, TransportErrorCode } from './errors.ts';
import type { QueryValue } from './http-types.ts';

/**
 * `basePath + path + ?query`. `path` must start with a single `/`: an absolute URL or a `//host` path would
 * let a caller redirect the Authorization header to another host, so both are refused.
 */
export function buildRequestPath(basePath: string, path: string, query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (!path.startsWith('/') || path.startsWith('//') || /[\s#]/.test(path)) {
    throw new TransportError(
      TransportErrorCode.InvalidRequest,
      'request path must start with a single "/" and contain no whitespace or "#" (absolute URLs are refused)',
      { details: { path: path.slice(0, 200) } },
    );
  }
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values as readonly (string | number | boolean)[]) search.append(key, String(v));
  }
  const qs = search.toString();
  if (qs.length > 0 && path.includes('?')) {
    throw new TransportError(TransportErrorCode.InvalidRequest, 'pass query parameters either in path or in query, not both', {
      details: { path: path.slice(0, 200) },
    });
  }
  return `${basePath}${path}${qs.length > 0 ? `?${qs}` : ''}`;
}

/** Merges header sets left to right; names are lower-cased so a later `authorization` replaces `Authorization`. */
export function mergeHeaders(...sets: (Readonly<Record<string, string>> | undefined)[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const set of sets) {
    for (const [name, value] of Object.entries(set ?? {})) out[name.toLowerCase()] = value;
  }
  return out;
}

/** Response headers from undici (string | string[] | undefined) as a flat lower-cased record. */
export function flattenHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Path without its query string, for messages and details (queries are not secret, but keep messages short). */
export function pathForMessages(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}
