/**
 * Reads a response body with a size cap and parses it as JSON. A body over the cap is cut off (the stream is
 * destroyed so the socket is not reused half-read) and reported as TRANSPORT_BAD_RESPONSE.
 */
import { TransportError, TransportErrorCode, truncate } from './errors.ts';
import type { CallContext } from './error-mapping.ts';

/** A body we can iterate and, when we stop early, destroy. undici's BodyReadable fits. */
export interface ReadableBody extends AsyncIterable<Uint8Array | string> {
  destroy(error?: Error): unknown;
}

/** The body as UTF-8 text, at most `maxBytes`; throws TRANSPORT_BAD_RESPONSE when larger. */
export async function readBodyText(body: ReadableBody, maxBytes: number, ctx: CallContext): Promise<string> {
  const decoder = new TextDecoder('utf-8');
  let size = 0;
  let text = '';
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.byteLength;
    if (size > maxBytes) {
      const error = new TransportError(
        TransportErrorCode.BadResponse,
        `${ctx.method} ${ctx.path}: response body exceeds ${maxBytes} bytes (raise maxResponseBytes if this is expected)`,
        { details: { method: ctx.method, path: ctx.path, maxBytes } },
      );
      body.destroy(error);
      throw error;
    }
    text += decoder.decode(bytes, { stream: true });
  }
  return text + decoder.decode();
}

/** Parses a 2xx body: empty -> null; anything that is not JSON -> TRANSPORT_BAD_RESPONSE with the text truncated. */
export function parseJsonBody(text: string, status: number, ctx: CallContext): unknown {
  if (text.trim().length === 0) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new TransportError(
      TransportErrorCode.BadResponse,
      `${ctx.method} ${ctx.path}: HTTP ${status} body is not JSON: ${truncate(text, 200)}`,
      { cause, details: { method: ctx.method, path: ctx.path, status, body: truncate(text, 1024) } },
    );
  }
}
