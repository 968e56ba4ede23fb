// KYC webhook registration (POST /v1/kyc/webhook): only an HTTPS URL that answers the test request with
// a 2xx within the configured timeout is accepted. A URL refused without being contacted says why; every
// failure of the test request (refused port, TLS failure, non-2xx, too slow) is one generic validation failure,
// so registration is no port-scan oracle, with the reason in the server's log only. A new valid URL replaces
// the old one; a failed registration leaves the old one in place. The sim trusts the test CA via
// sim.kyc.extraCaFile.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/logging/logger.ts';
import { WebhookClient } from '../../../src/sim/kyc/webhook-client.ts';
import { WebhookRegistry, WEBHOOK_VALIDATION_FAILED } from '../../../src/sim/kyc/webhook-registry.ts';
import { CLIENT, startFamilyA, type FamilyAHarness } from '../familya/helpers/harness.ts';
import { closedPort, makeCert, WebhookReceiver, type TestCert } from './helpers/receiver.ts';

const TIMEOUT_MS = 300;
let h: FamilyAHarness;
let token: string;
let cert: TestCert;
const receivers: WebhookReceiver[] = [];

async function receiver(): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start(cert);
  receivers.push(r);
  return r;
}

async function register(webhookUrl: string) {
  return h.call('POST', '/v1/kyc/webhook', { token, body: { webhookUrl } });
}

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-kyc-'));
  cert = await makeCert(dir);
  h = await startFamilyA({ kyc: `webhookTimeoutMs: ${TIMEOUT_MS}, extraCaFile: ${cert.certFile}` }, dir);
  token = await h.token(CLIENT);
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await h.close();
});

describe('webhook registration refusals', () => {
  it('a plain HTTP URL is refused without being contacted', async () => {
    const response = await register('http://127.0.0.1:1/hook');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ validated: false, message: 'the webhook URL must use HTTPS, not http' });
  });

  it('an unreachable URL, a non-2xx answer, a slow answer and an untrusted certificate get the same answer', async () => {
    const generic = { validated: false, message: WEBHOOK_VALIDATION_FAILED };
    expect((await register(`https://127.0.0.1:${await closedPort()}/hook`)).body).toEqual(generic);

    const failing = await receiver();
    failing.plan = () => 500;
    expect((await register(failing.url)).body).toEqual(generic);
    expect(failing.received).toHaveLength(1);

    const slow = await receiver();
    slow.plan = () => 'hold';
    expect((await register(slow.url)).body).toEqual(generic);
    slow.releaseHeld();

    const otherCert = await makeCert(h.dir, 'untrusted');
    const untrusted = await WebhookReceiver.start(otherCert);
    receivers.push(untrusted);
    expect((await register(untrusted.url)).body).toEqual(generic);
  });

  it('the reason of a refusal is in the server log only', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const client = new WebhookClient({ timeoutMs: () => TIMEOUT_MS });
    const registry = new WebhookRegistry(client, createLogger({ destination, pretty: false }));
    try {
      const answer = await registry.register('demo', `https://127.0.0.1:${await closedPort()}/hook?secret=s3cr3t`);
      expect(answer).toEqual({ validated: false, message: WEBHOOK_VALIDATION_FAILED });
      const refused = lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l['msg'] === 'KYC webhook registration refused');
      expect(refused).toMatchObject({
        firm: 'demo',
        failure: 'unreachable',
        reason: expect.stringMatching(/unreachable \(ECONNREFUSED\)/),
      });
      expect(lines.join('')).not.toContain('s3cr3t');
    } finally {
      await client.close();
    }
  });

  it('a missing webhookUrl is 400', async () => {
    const response = await h.call('POST', '/v1/kyc/webhook', { token, body: {} });
    expect(response.status).toBe(400);
  });
});

describe('webhook registration acceptance', () => {
  it('a self-signed HTTPS receiver answering 200 is accepted after one test request', async () => {
    const r = await receiver();
    const response = await register(r.url);
    expect(response.body).toEqual({ validated: true, message: 'webhook URL validated and registered' });
    expect(r.received).toHaveLength(1);
    expect(r.received[0]?.headers['x-kyc-webhook-test']).toBe('true');
    expect(r.received[0]?.body).toMatchObject({ externalId: '', status: 'NOT_STARTED', subStatus: 'WEBHOOK_TEST' });
    expect(h.sim.kyc.webhookUrl('demo')).toBe(r.url);
  });

  it('a failed registration keeps the old URL; a new valid one replaces it', async () => {
    const old = h.sim.kyc.webhookUrl('demo');
    const failing = await receiver();
    failing.plan = () => 404;
    expect((await register(failing.url)).body['validated']).toBe(false);
    expect(h.sim.kyc.webhookUrl('demo')).toBe(old);

    const next = await receiver();
    const response = await register(next.url);
    expect(response.body).toEqual({ validated: true, message: 'webhook URL validated; it replaces the previous URL' });
    expect(h.sim.kyc.webhookUrl('demo')).toBe(next.url);
  });

  it('webhooks are per firm', () => {
    expect(h.sim.kyc.webhookUrl('other')).toBeUndefined();
  });
});
