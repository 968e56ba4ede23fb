/**
 * A KYC webhook receiver for tests: an HTTPS server on 127.0.0.1 port 0 with a self-signed certificate
 * for 127.0.0.1/localhost made by the `selfsigned` package in a temp folder (the sim trusts it through
 * `sim.kyc.extraCaFile`). Each request is recorded; a per-request plan answers with a status or holds
 * the response until the test releases it. Tests await requests by predicate, never by sleeping.
 */
import https from 'node:https';
import type http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { makeSelfSignedCert } from '../../../kyc/helpers/tls.ts';

export interface TestCert {
  keyPem: string;
  certPem: string;
  certFile: string;
}

/** A self-signed certificate for 127.0.0.1 and localhost, written to `dir` as `<name>.cert.pem`. */
export async function makeCert(dir: string, name = 'receiver'): Promise<TestCert> {
  const made = await makeSelfSignedCert(dir, name);
  return { keyPem: made.key, certPem: made.cert, certFile: made.certFile };
}

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** What to answer the n-th request (0-based): a status, or 'hold' until `releaseHeld()`. */
export type Plan = (index: number, request: ReceivedRequest) => number | 'hold';

export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  private readonly held: http.ServerResponse[] = [];
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly server: https.Server,
    readonly url: string,
    public plan: Plan,
  ) {}

  static async start(cert: TestCert, plan: Plan = () => 200, pathName = '/kyc-hook'): Promise<WebhookReceiver> {
    const ref: { receiver?: WebhookReceiver } = {};
    const server = https.createServer({ key: cert.keyPem, cert: cert.certPem }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => ref.receiver?.handle(request, response, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as AddressInfo).port;
    ref.receiver = new WebhookReceiver(server, `https://127.0.0.1:${port}${pathName}`, plan);
    return ref.receiver;
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse, text: string): void {
    const received: ReceivedRequest = { headers: request.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
    const index = this.received.length;
    this.received.push(received);
    const answer = this.plan(index, received);
    if (answer === 'hold') this.held.push(response);
    else response.writeHead(answer, { 'content-type': 'application/json' }).end('{}');
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Notifications only (not the registration test request). */
  get notifications(): ReceivedRequest[] {
    return this.received.filter((r) => r.headers['x-kyc-webhook-test'] === undefined);
  }

  async until(predicate: (requests: ReceivedRequest[]) => boolean): Promise<void> {
    while (!predicate(this.received)) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  releaseHeld(status = 200): void {
    for (const response of this.held.splice(0)) if (!response.destroyed) response.writeHead(status).end('{}');
  }

  async close(): Promise<void> {
    this.releaseHeld();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** A loopback port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
