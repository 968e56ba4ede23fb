/**
 * The KYC webhook's HTTPS endpoint (node:https). A request from an address outside `allowFrom` (when set) is
 * answered 403 unread. Each POST to the configured path is read (at most 64 KiB), validated with the KYC
 * notification codec and handed to `onNotification`, which confirms it with the exchange: 200
 * `{"received": true}` once the exchange answered (processing follows, so the answer stays well inside the
 * exchange's 5 s), 503 `{"error": ...}` with `retry-after` when the exchange could not be asked (the exchange
 * retries the delivery; nothing changed); 200 `{"received": true, "test": true}` for a validation request
 * without `externalId` (what registration sends; nothing is emitted), 400 `{"error": "..."}` naming what is
 * wrong for a bad body, 404 / 405 / 413 for a wrong path, method or size. A bad request never stops the server.
 * TLS: 1.3, or 1.2 with forward-secret (ECDHE) AEAD suites only (TLS12_CIPHERS).
 */
import https from 'node:https';
import type { BlockList } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { authCodecs, parseJsonText } from '../domain/index.ts';
import type { KycNotification } from '../domain/index.ts';
import { KycError, KycErrorCode } from './errors.ts';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * TLS 1.2 suites the receiver offers: ECDHE key exchange with AEAD ciphers only (forward secrecy; no static RSA
 * key exchange, no CBC). TLS 1.3 suites are all forward-secret and stay Node's defaults.
 */
export const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
] as const;
const TLS13_CIPHERS = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'];

export interface WebhookServerOptions {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  /** PEM certificate chain and private key. */
  readonly cert: string;
  readonly key: string;
  readonly logger: Logger;
  readonly now: () => number;
  /** Confirms and queues a notification: 'ok' (answer 200) or 'retry' (the exchange could not be asked: 503). */
  readonly onNotification: (notification: KycNotification, receivedAt: number) => Promise<'ok' | 'retry'>;
  readonly onInvalid: () => void;
  /** Source addresses allowed to post (undefined: every address). */
  readonly allowFrom?: BlockList | undefined;
}

/** Whether `address` (as the socket reports it, IPv4-mapped IPv6 included) is in `list`. */
export function addressAllowed(list: BlockList, address: string | undefined): boolean {
  if (address === undefined) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped?.[1] ?? address;
  return list.check(ip, ip.includes(':') ? 'ipv6' : 'ipv4');
}

export interface RunningWebhookServer {
  readonly port: number;
  /** `https://<host>:<port><path>` (127.0.0.1 when listening on every interface). */
  readonly url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** Reads the body as text, or undefined when it exceeds the cap (the caller answers 413). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The notification in a body, or the reason it is not one. */
export function parseNotification(text: string): { notification: KycNotification } | { error: string } {
  if (text.trim() === '') return { notification: authCodecs.kycNotification.decode({}) };
  try {
    return { notification: authCodecs.kycNotification.decode(parseJsonText(text, 'body')) };
  } catch (error) {
    return { error: `invalid KYC notification: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export async function startWebhookServer(options: WebhookServerOptions): Promise<RunningWebhookServer> {
  const { logger } = options;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (options.allowFrom !== undefined && !addressAllowed(options.allowFrom, req.socket.remoteAddress)) {
      options.onInvalid();
      logger.warn({ remote: req.socket.remoteAddress }, 'KYC webhook request from an address outside allowFrom refused');
      return send(res, 403, { error: 'forbidden' }, { connection: 'close' });
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path !== options.path) return send(res, 404, { error: `not found; notifications go to ${options.path}` });
    if (req.method !== 'POST') return send(res, 405, { error: 'only POST is accepted' }, { allow: 'POST' });
    const text = await readBody(req);
    if (text === undefined) {
      options.onInvalid();
      return send(res, 413, { error: `body larger than ${MAX_BODY_BYTES} bytes` }, { connection: 'close' });
    }
    const parsed = parseNotification(text);
    if ('error' in parsed) {
      options.onInvalid();
      logger.warn({ error: parsed.error, remote: req.socket.remoteAddress }, 'refused an invalid KYC notification');
      return send(res, 400, { error: parsed.error });
    }
    if (parsed.notification.externalId === '') {
      logger.info({ remote: req.socket.remoteAddress }, 'KYC webhook validation request answered');
      return send(res, 200, { received: true, test: true });
    }
    const outcome = await options.onNotification(parsed.notification, options.now());
    if (outcome === 'retry')
      return send(res, 503, { error: 'cannot confirm the notification with the exchange now; retry later' }, { 'retry-after': '5' });
    send(res, 200, { received: true });
  };

  let server: https.Server;
  try {
    const ciphers = [...TLS13_CIPHERS, ...TLS12_CIPHERS].join(':');
    server = https.createServer(
      { cert: options.cert, key: options.key, minVersion: 'TLSv1.2', ciphers, honorCipherOrder: true },
      (req, res) => {
        handle(req, res).catch((error: unknown) => {
          logger.error({ err: error }, 'KYC webhook request failed');
          if (!res.headersSent) send(res, 500, { error: 'internal error' });
          else res.destroy();
        });
      },
    );
  } catch (error) {
    throw new KycError(
      KycErrorCode.TlsInvalid,
      `KYC webhook: the TLS certificate or key is not usable (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  server.on('tlsClientError', (error) => logger.debug({ err: error }, 'KYC webhook TLS handshake failed'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new KycError(
          KycErrorCode.ListenFailed,
          `KYC webhook: cannot listen on ${options.host}:${options.port} (${error.code ?? error.message})`,
          { cause: error },
        ),
      ),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host =
    options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    port,
    url: `https://${host}:${port}${options.path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
