/**
 * The KYC receiver against forged notifications (issue 21, point 2). It listens on loopback unless told
 * otherwise; it acts only on what the exchange confirms (`GET /v1/kyc/status` through the real family A client
 * against the embedded exchange): a forged CLOSED/ACCEPT never changes its state, so the genuine OPEN / ON_HOLD /
 * CLOSED that follow are all emitted; a notification the exchange cannot confirm right now is answered 503 (the
 * exchange retries) and changes nothing; an `allowFrom` list refuses other sources. Its state file is
 * append-only: processing many notifications appends lines (batched, fsynced) instead of rewriting the file.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { familyAConfirmation, startKycReceiver } from '../../src/kyc/index.ts';
import type { KycEvent, KycReceiver } from '../../src/kyc/index.ts';
import type { KycNotification } from '../../src/domain/index.ts';
import { configSchema, parseConfigText } from '../../src/config/index.ts';
import { ALICE, startSimHarness, type SimHarness } from '../exchange/familya/helpers/sim.ts';
import { makeSelfSignedCert, postHttps, type TestCert } from './helpers/tls.ts';

let tls: TestCert;
const running: KycReceiver[] = [];
beforeAll(async () => {
  tls = await makeSelfSignedCert();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

const notification = (over: Partial<KycNotification> = {}): KycNotification => ({
  externalId: 'user-1',
  decision: '',
  status: 'OPEN',
  subStatus: '',
  participantId: '',
  account: '',
  ...over,
});

const stateDir = () => mkdtempSync(path.join(tmpdir(), 'tradebot-kyc-auth-'));

describe('binding', () => {
  it('listens on loopback when no host is configured', async () => {
    const receiver = await startKycReceiver({
      port: 0,
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      stateFile: path.join(stateDir(), 'state.jsonl'),
      confirm: async (id) => notification({ externalId: id }),
    });
    running.push(receiver);
    expect(receiver.host).toBe('127.0.0.1');
  });

  it('the config default is loopback too', () => {
    const yaml = `
exchange:
  apiUrl: https://api.example.com
  authUrl: https://auth.example.com
  gatewayUrl: https://rest.example.com
  kyc: { webhook: { port: 8443, certFile: cert.pem, keyFile: key.pem, stateFile: state.jsonl } }
`;
    const config = parseConfigText(yaml, configSchema, { env: {}, file: path.join(stateDir(), 'x.yaml') });
    expect(config.exchange?.kyc?.webhook.host).toBe('127.0.0.1');
  });
});

describe('with the embedded exchange confirming', () => {
  let h: SimHarness;
  let receiver: KycReceiver;
  const events: KycEvent[] = [];

  beforeAll(async () => {
    h = await startSimHarness({ kyc: `extraCaFile: ${tls.certFile}, holdProbability: "1", minStepSeconds: 1, maxStepSeconds: 2` });
    const client = h.clientFor(ALICE).client;
    receiver = await startKycReceiver({
      port: 0,
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      stateFile: path.join(stateDir(), 'state.jsonl'),
      confirm: familyAConfirmation(client),
    });
    receiver.notifications$.subscribe((event) => events.push(event));
    expect((await client.registerKycWebhook(receiver.url)).validated).toBe(true);
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it('a forged CLOSED/ACCEPT changes nothing; the genuine notifications that follow are all emitted', async () => {
    const client = h.clientFor(ALICE).client;
    await client.kycVerify({ externalId: 'kyc-victim', email: 'v@example.com', firstName: 'V', lastName: 'Ictim' });
    const forged = notification({
      externalId: 'kyc-victim',
      status: 'CLOSED',
      decision: 'ACCEPT',
      participantId: 'firms/demo/users/mallory',
      account: 'firms/demo/accounts/mallory-1',
    });
    expect((await postHttps(receiver.url, forged, tls.cert)).status).toBe(200);
    await receiver.idle();
    expect(events.some((e) => e.notification.status === 'CLOSED')).toBe(false);
    expect(receiver.stats.unconfirmed).toBe(1);

    // a forged notification for a user the exchange does not know changes nothing either
    expect(
      (await postHttps(receiver.url, notification({ externalId: 'nobody', status: 'CLOSED', decision: 'ACCEPT' }), tls.cert)).status,
    ).toBe(200);

    for (let due = h.sim.kyc.nextDueAt(); due !== undefined; due = h.sim.kyc.nextDueAt()) {
      if (due > h.clock.now()) h.clock.advance(due - h.clock.now());
      await h.sim.kyc.advance();
    }
    await receiver.idle();
    const statuses = events.filter((e) => e.notification.externalId === 'kyc-victim').map((e) => e.notification.status);
    expect(statuses).toContain('ON_HOLD');
    expect(statuses.at(-1)).toBe('CLOSED');
    expect(receiver.stats.stale).toBe(0);
    const final = await client.kycStatus('kyc-victim');
    expect(events.at(-1)?.notification).toMatchObject({ status: final.status, decision: final.decision, account: final.account });
    expect(JSON.stringify(events)).not.toContain('mallory');
    expect(events.some((e) => e.notification.externalId === 'nobody')).toBe(false);
  });
});

describe('without a confirmation', () => {
  it('answers 503 when the exchange cannot confirm now (it retries), and changes nothing', async () => {
    let up = false;
    const receiver = await startKycReceiver({
      port: 0,
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      stateFile: path.join(stateDir(), 'state.jsonl'),
      confirm: async (id) => {
        if (!up) throw new Error('connect ECONNREFUSED');
        return notification({ externalId: id, status: 'ON_HOLD' });
      },
    });
    running.push(receiver);
    const events: KycEvent[] = [];
    receiver.notifications$.subscribe((e) => events.push(e));
    const refused = await postHttps(receiver.url, notification({ status: 'ON_HOLD' }), tls.cert);
    expect(refused.status).toBe(503);
    await receiver.idle();
    expect(events).toHaveLength(0);
    up = true;
    expect((await postHttps(receiver.url, notification({ status: 'ON_HOLD' }), tls.cert)).status).toBe(200);
    await receiver.idle();
    expect(events.map((e) => e.notification.status)).toEqual(['ON_HOLD']);
  });

  it('refuses a source outside allowFrom with 403 before reading it', async () => {
    const receiver = await startKycReceiver({
      port: 0,
      allowFrom: ['10.0.0.0/8'],
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      stateFile: path.join(stateDir(), 'state.jsonl'),
      confirm: async (id) => notification({ externalId: id }),
    });
    running.push(receiver);
    expect((await postHttps(receiver.url, notification(), tls.cert)).status).toBe(403);
    await receiver.idle();
    expect(receiver.stats.emitted).toBe(0);
  });
});

describe('state file', () => {
  it('appends what it handles (batched, fsynced) instead of rewriting the whole file per notification', async () => {
    const stateFile = path.join(stateDir(), 'state.jsonl');
    const receiver = await startKycReceiver({
      port: 0,
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      stateFile,
      confirm: async (id) => notification({ externalId: id }),
    });
    running.push(receiver);
    await postHttps(receiver.url, notification({ externalId: 'first' }), tls.cert);
    await receiver.idle();
    const inode = statSync(stateFile).ino;
    const before = readFileSync(stateFile, 'utf8');
    const count = 200;
    await Promise.all(Array.from({ length: count }, (_, i) => postHttps(receiver.url, notification({ externalId: `u-${i}` }), tls.cert)));
    await receiver.idle();
    expect(receiver.stats.emitted).toBe(count + 1);
    const after = readFileSync(stateFile, 'utf8');
    expect(statSync(stateFile).ino).toBe(inode);
    expect(after.startsWith(before)).toBe(true);
    expect(after.trimEnd().split('\n')).toHaveLength(before.trimEnd().split('\n').length + count);
    // several notifications share a write: fewer appends than notifications
    expect(receiver.stats.stateWrites).toBeLessThan(count);
  });
});
