// Private link: connect to {private_link_url} but send the Host of {gateway_url}, as the gateway spec requires.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../../src/exchange/transport/index.ts';
import { sendJson, servers } from './helpers/test-server.ts';
import type { TestServer } from './helpers/test-server.ts';

const registry = servers();
const transports: HttpTransport[] = [];
const tlsServers: https.Server[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
  await registry.closeAll();
  await Promise.all(
    tlsServers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

// A self-signed certificate for rest.dev.example only (no IP SAN): see fixtures/README.md.
const CERT = readFileSync(new URL('./fixtures/test-only-cert.pem', import.meta.url), 'utf8');
const KEY = readFileSync(new URL('./fixtures/test-only-key.pem', import.meta.url), 'utf8');

/** An HTTPS server on 127.0.0.1 answering with the Host header and the TLS SNI name it saw. */
async function tlsEchoServer(): Promise<string> {
  const server = https.createServer({ cert: CERT, key: KEY }, (req, res) =>
    sendJson(res, 200, { host: req.headers.host, sni: (req.socket as TLSSocket).servername }),
  );
  tlsServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function transport(options: ConstructorParameters<typeof HttpTransport>[0]): HttpTransport {
  const t = new HttpTransport(options);
  transports.push(t);
  return t;
}

/** A server that answers with the Host header and URL it saw, and the address the client came from. */
function echoServer(): Promise<TestServer> {
  return registry.start((req, res) => sendJson(res, 200, { host: req.headers.host, url: req.url, localAddress: req.socket.localAddress }));
}

describe('private link', () => {
  it('sends Host: rest.dev.example while connected to 127.0.0.1', async () => {
    const server = await echoServer();
    const t = transport({ baseUrl: 'https://rest.dev.example', privateLinkUrl: server.url });
    const res = await t.request({ method: 'POST', path: '/api/v1beta1/insert_order', body: {}, idempotent: false });
    expect(res.body).toEqual({ host: 'rest.dev.example', url: '/api/v1beta1/insert_order', localAddress: '127.0.0.1' });
    expect(t.connectOrigin).toBe(server.url);
    expect(t.hostHeader).toBe('rest.dev.example');
  });

  it('keeps a non-default port of the gateway URL in the Host header and its path prefix in the path', async () => {
    const server = await echoServer();
    const t = transport({ baseUrl: 'https://rest.dev.example:8443/gw/', privateLinkUrl: server.url });
    const res = await t.request({ method: 'GET', path: '/api/v1beta1/x', query: { a: 1 }, idempotent: true });
    expect(res.body).toMatchObject({ host: 'rest.dev.example:8443', url: '/gw/api/v1beta1/x?a=1' });
  });

  it('does not let a caller header override the Host', async () => {
    const server = await echoServer();
    const t = transport({ baseUrl: 'https://rest.dev.example', privateLinkUrl: server.url });
    const res = await t.request({ method: 'GET', path: '/x', headers: { Host: 'evil.example' }, idempotent: true });
    expect(res.body).toMatchObject({ host: 'rest.dev.example' });
  });

  it('without a private link, sends the base URL host', async () => {
    const server = await echoServer();
    const res = await transport({ baseUrl: server.url }).request({ method: 'GET', path: '/x', idempotent: true });
    expect(res.body).toMatchObject({ host: `127.0.0.1:${server.port}` });
  });

  it('applies the Host header to NDJSON streams too', async () => {
    const server = await registry.start((req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(`${JSON.stringify({ result: { host: req.headers.host } })}\n`);
    });
    const t = transport({ baseUrl: 'https://rest.dev.example', privateLinkUrl: server.url });
    const lines: unknown[] = [];
    await new Promise<void>((resolve, reject) =>
      t
        .streamNdjson({ path: '/api/v1beta1/create_order_subscription', body: {} })
        .subscribe({ next: (l) => lines.push(l), error: reject, complete: resolve }),
    );
    expect(lines).toEqual([{ result: { host: 'rest.dev.example' } }]);
  });

  it('over TLS, uses the gateway host for SNI and certificate verification while connected to 127.0.0.1', async () => {
    const url = await tlsEchoServer();
    const t = transport({ baseUrl: 'https://rest.dev.example', privateLinkUrl: url, ca: CERT });
    const res = await t.request({ method: 'GET', path: '/x', idempotent: true });
    expect(res.body).toEqual({ host: 'rest.dev.example', sni: 'rest.dev.example' });
  });

  it('over TLS without the private link Host, the certificate does not match: TRANSPORT_TLS_FAILED (config)', async () => {
    const url = await tlsEchoServer();
    const t = transport({ baseUrl: url, ca: CERT });
    await expect(t.request({ method: 'GET', path: '/x', idempotent: true })).rejects.toMatchObject({
      code: 'TRANSPORT_TLS_FAILED',
      kind: 'config',
      retryable: false,
    });
  });
});
