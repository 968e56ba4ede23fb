// The simulated KYC flow end to end, driven by the injected clock and `sim.kyc.advance()`: a verification
// moves NOT_STARTED -> OPEN -> ON_HOLD -> CLOSED/ACCEPT, every change is POSTed to the HTTPS receiver
// (duplicates included), the accepted participant's account exists in the exchange, and failed
// deliveries are retried with backoff until the receiver answers 2xx.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, SYMBOL, startFamilyA, type FamilyAHarness, type Json } from '../familya/helpers/harness.ts';
import { makeCert, WebhookReceiver, type TestCert } from './helpers/receiver.ts';

/** Moves the clock to each due time and advances KYC until nothing is pending. */
async function drain(h: FamilyAHarness, maxRounds = 50): Promise<void> {
  for (let round = 0; round < maxRounds; round++) {
    await h.sim.kyc.advance();
    const next = h.sim.kyc.nextDueAt();
    if (next === undefined) return;
    h.clock.set(next);
  }
  throw new Error('KYC did not settle');
}

async function setup(kyc: string, realTime = false): Promise<{ h: FamilyAHarness; cert: TestCert; token: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-kyc-flow-'));
  const cert = await makeCert(dir);
  const h = await startFamilyA({ kyc: `${kyc}, webhookTimeoutMs: 2000, extraCaFile: ${cert.certFile}`, realTime }, dir);
  return { h, cert, token: await h.token(CLIENT) };
}

const statuses = (r: WebhookReceiver) => r.notifications.map((n) => `${String(n.body['status'])}/${String(n.body['decision'])}`);

describe('an accepted verification', () => {
  let h: FamilyAHarness;
  let token: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    const s = await setup(
      'minStepSeconds: 5, maxStepSeconds: 5, holdProbability: "1", ' +
        'decisionWeights: { accept: "1", reject: "0", review: "0" }, duplicateProbability: "1"',
    );
    ({ h, token } = s);
    receiver = await WebhookReceiver.start(s.cert);
    const registered = await h.call('POST', '/v1/kyc/webhook', { token, body: { webhookUrl: receiver.url } });
    expect(registered.body['validated']).toBe(true);
  });
  afterAll(async () => {
    await receiver.close();
    await h.close();
  });

  it('moves through every status on the sim clock, and GET /v1/kyc/status follows', async () => {
    const started = await h.call('POST', '/v1/kyc/verify', {
      token,
      body: { externalId: 'ext-frank', email: 'frank@example.com', firstName: 'Frank', lastName: 'F' },
    });
    expect(started.body).toMatchObject({ externalId: 'ext-frank', status: 'NOT_STARTED' });
    const seen: string[] = [];
    const status = async () => {
      const response = await h.call('GET', '/v1/kyc/status?externalId=ext-frank', { token });
      return `${String(response.body['status'])}/${String(response.body['decision'])}`;
    };
    seen.push(await status());
    for (let i = 0; i < 3; i++) {
      h.clock.advance(5_000);
      await h.sim.kyc.advance();
      seen.push(await status());
    }
    expect(seen).toEqual(['NOT_STARTED/', 'OPEN/', 'ON_HOLD/', 'CLOSED/ACCEPT']);
    expect(h.sim.kyc.nextDueAt()).toBeUndefined();
  });

  it('POSTs every change to the receiver, each sent twice (duplicateProbability 1)', () => {
    expect(statuses(receiver)).toEqual([
      'NOT_STARTED/',
      'NOT_STARTED/',
      'OPEN/',
      'OPEN/',
      'ON_HOLD/',
      'ON_HOLD/',
      'CLOSED/ACCEPT',
      'CLOSED/ACCEPT',
    ]);
    const [first, duplicate] = receiver.notifications;
    expect(duplicate?.body).toEqual(first?.body);
    expect(duplicate?.headers['x-kyc-delivery-id']).toBe(first?.headers['x-kyc-delivery-id']);
    expect(h.sim.kyc.deliveryStats).toMatchObject({ delivered: 4, duplicates: 4, dropped: 0 });
  });

  it('the ACCEPT notification carries participantId and account; the account exists in the exchange', async () => {
    const accepted = receiver.notifications.at(-1)?.body as Json;
    expect(accepted).toMatchObject({
      externalId: 'ext-frank',
      status: 'CLOSED',
      decision: 'ACCEPT',
      subStatus: 'APPROVED',
      participantId: 'firms/demo/users/ext-frank',
      account: 'firms/demo/accounts/ext-frank-1',
    });
    const balance = await h.call('POST', '/v1/positions/balance', { token, body: { name: accepted['account'] } });
    expect(balance.status, balance.text).toBe(200);
    expect(balance.body).toMatchObject({ account: 'firms/demo/accounts/ext-frank-1', balance: '100000' });
    const users = await h.call('GET', '/v1/users', { token });
    expect((users.body['users'] as Json[]).find((u) => u['externalId'] === 'ext-frank')).toMatchObject({
      id: 'firms/demo/users/ext-frank',
      kycStatus: 'CLOSED',
      accounts: ['firms/demo/accounts/ext-frank-1'],
    });
  });

  it('the new participant can trade through /v1', async () => {
    const order = {
      symbol: SYMBOL,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: '1',
      price: '10',
      account: 'firms/demo/accounts/ext-frank-1',
    };
    const response = await h.call('POST', '/v1/trading/orders', { token, participant: 'firms/demo/users/ext-frank', body: order });
    expect(response.status, response.text).toBe(200);
  });

  it('a user created with POST /v1/users gets the account on approval', async () => {
    await h.call('POST', '/v1/users', { token, body: { username: 'gina', externalId: 'ext-gina' } });
    await h.call('POST', '/v1/kyc/verify', { token, body: { externalId: 'ext-gina' } });
    await drain(h);
    const status = await h.call('GET', '/v1/kyc/status?externalId=ext-gina', { token });
    expect(status.body).toMatchObject({
      status: 'CLOSED',
      decision: 'ACCEPT',
      participantId: 'firms/demo/users/gina',
      account: 'firms/demo/accounts/gina-1',
    });
  });

  it('verifying the same externalId again returns its status without restarting', async () => {
    const again = await h.call('POST', '/v1/kyc/verify', { token, body: { externalId: 'ext-frank' } });
    expect(again.body).toMatchObject({ status: 'CLOSED', decision: 'ACCEPT' });
    expect(h.sim.kyc.nextDueAt()).toBeUndefined();
  });
});

describe('delivery retries', () => {
  let h: FamilyAHarness;
  let token: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    const s = await setup(
      'holdProbability: "0", decisionWeights: { accept: "0", reject: "1", review: "0" }, duplicateProbability: "0", ' +
        'retry: { maxAttempts: 4, initialBackoffMs: 1000, maxBackoffMs: 1500 }',
    );
    ({ h, token } = s);
    receiver = await WebhookReceiver.start(s.cert);
    expect((await h.call('POST', '/v1/kyc/webhook', { token, body: { webhookUrl: receiver.url } })).body['validated']).toBe(true);
  });
  afterAll(async () => {
    await receiver.close();
    await h.close();
  });

  it('retries a failing delivery with backoff until it is answered 2xx', async () => {
    // the first two notification attempts fail (503), everything after succeeds
    receiver.plan = (_index, request) =>
      request.headers['x-kyc-webhook-test'] === undefined && receiver.notifications.length <= 2 ? 503 : 200;
    await h.call('POST', '/v1/kyc/verify', { token, body: { externalId: 'ext-hank' } });
    const t0 = h.clock.now();
    await h.sim.kyc.advance();
    expect(h.sim.kyc.nextDueAt()).toBe(t0 + 1000);
    h.clock.set(t0 + 1000);
    await h.sim.kyc.advance();
    expect(h.sim.kyc.nextDueAt()).toBe(t0 + 2500);
    await drain(h);
    const attempts = receiver.notifications
      .filter((n) => n.body['status'] === 'NOT_STARTED')
      .map((n) => n.headers['x-kyc-delivery-attempt']);
    expect(attempts).toEqual(['1', '2', '3']);
    expect(statuses(receiver).filter((s, i, all) => all.indexOf(s) === i)).toEqual(['NOT_STARTED/', 'OPEN/', 'CLOSED/REJECT']);
    expect(h.sim.kyc.deliveryStats).toMatchObject({ retriesScheduled: 2, delivered: 3, duplicates: 0, dropped: 0 });
    const status = await h.call('GET', '/v1/kyc/status?externalId=ext-hank', { token });
    expect(status.body).toMatchObject({ status: 'CLOSED', decision: 'REJECT', subStatus: 'DECLINED', participantId: '', account: '' });
  });

  it('gives up after maxAttempts', async () => {
    receiver.plan = (_index, request) => (request.headers['x-kyc-webhook-test'] === undefined ? 500 : 200);
    await h.call('POST', '/v1/kyc/verify', { token, body: { externalId: 'ext-ivy' } });
    await drain(h);
    const ivy = receiver.notifications.filter((n) => n.body['externalId'] === 'ext-ivy');
    // NOT_STARTED, OPEN, CLOSED: 4 attempts each, then dropped
    expect(ivy).toHaveLength(12);
    expect(h.sim.kyc.deliveryStats.dropped).toBe(3);
  });
});

describe('the KYC timer (tradebot sim: wall clock, timer on)', () => {
  it('moves a verification to CLOSED and delivers every change without advance() calls', async () => {
    const s = await setup(
      'minStepSeconds: 0.02, maxStepSeconds: 0.05, tickMs: 10, holdProbability: "0", ' +
        'decisionWeights: { accept: "1", reject: "0", review: "0" }, duplicateProbability: "0"',
      true,
    );
    const receiver = await WebhookReceiver.start(s.cert);
    try {
      expect((await s.h.call('POST', '/v1/kyc/webhook', { token: s.token, body: { webhookUrl: receiver.url } })).body['validated']).toBe(
        true,
      );
      await s.h.call('POST', '/v1/kyc/verify', { token: s.token, body: { externalId: 'ext-timer' } });
      await receiver.until(() => receiver.notifications.some((n) => n.body['status'] === 'CLOSED'));
      expect(statuses(receiver)).toEqual(['NOT_STARTED/', 'OPEN/', 'CLOSED/ACCEPT']);
    } finally {
      await receiver.close();
      await s.h.close();
    }
  });
});
