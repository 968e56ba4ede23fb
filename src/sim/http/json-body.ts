/**
 * Reads a request body as JSON with a size cap. Malformed JSON, a non-object body or an oversized body is
 * an INVALID_ARGUMENT error; nothing downstream ever sees a half-parsed value.
 */
import type { IncomingMessage } from 'node:http';
import { SimHttpError, invalidArgument } from './errors.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

export async function readJsonBody(request: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw new SimHttpError('INVALID_ARGUMENT', `request body is larger than ${maxBytes} bytes`);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  const contentType = String(request.headers['content-type'] ?? '');
  if (contentType.startsWith('application/x-www-form-urlencoded') && !text.startsWith('{')) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalidArgument(`malformed JSON body: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidArgument('the request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}
