/**
 * The simulator's outbound HTTPS client for KYC webhooks (undici). It trusts the system roots plus an
 * optional extra CA (`sim.kyc.extraCaFile`, e.g. a test's self-signed certificate), posts one JSON
 * notification with a deadline, never follows redirects, and classifies the outcome: 2xx, another
 * status, too slow, TLS failure or unreachable. Outcomes name the failure without echoing the URL's
 * path or query, which may carry the receiver's secrets.
 */
import tls from 'node:tls';
import { Agent, request } from 'undici';

export type DeliveryOutcome =
  | { ok: true; status: number }
  | { ok: false; kind: 'status'; status: number; message: string }
  | { ok: false; kind: 'timeout' | 'tls' | 'unreachable'; message: string };

export interface WebhookClientOptions {
  /** Extra trusted CA certificate(s), PEM. */
  extraCa?: string | undefined;
  timeoutMs: () => number;
}

const TLS_CODES = /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO|HOSTNAME_MISMATCH|ERR_CERT)/;
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.name : 'UNKNOWN';
}

export class WebhookClient {
  private readonly agent: Agent;

  constructor(private readonly options: WebhookClientOptions) {
    const ca = options.extraCa === undefined ? undefined : [...tls.rootCertificates, options.extraCa];
    this.agent = new Agent({ connect: ca === undefined ? {} : { ca }, keepAliveTimeout: 5_000, connections: 8 });
  }

  async postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<DeliveryOutcome> {
    const timeoutMs = this.options.timeoutMs();
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'tradebot-sim-kyc/1', ...headers },
        body: JSON.stringify(body),
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, status: response.statusCode };
      return {
        ok: false,
        kind: 'status',
        status: response.statusCode,
        message: `the webhook URL answered HTTP ${response.statusCode}; a 2xx status is required`,
      };
    } catch (error) {
      const code = errorCode(error);
      if (signal.aborted || TIMEOUT_CODES.has(code) || code === 'TimeoutError' || code === 'AbortError') {
        return { ok: false, kind: 'timeout', message: `the webhook URL did not answer within ${timeoutMs} ms` };
      }
      if (TLS_CODES.test(code))
        return {
          ok: false,
          kind: 'tls',
          message: `the TLS handshake with the webhook URL failed (${code}): its certificate is not trusted or does not match the host`,
        };
      return { ok: false, kind: 'unreachable', message: `the webhook URL is unreachable (${code})` };
    }
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}
