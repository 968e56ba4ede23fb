// End to end: the KYC receiver registered with the simulator through the family A client, then a
// simulated verification delivered over HTTPS (every notification sent twice): each status change is
// emitted once, in order, and the registration's test request emits nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { familyAConfirmation, startKycReceiver } from '../../src/kyc/index.ts';
import type { KycEvent, KycReceiver } from '../../src/kyc/index.ts';
import { ALICE, startSimHarness } from '../exchange/familya/helpers/sim.ts';
import type { SimHarness } from '../exchange/familya/helpers/sim.ts';
import { makeSelfSignedCert } from './helpers/tls.ts';

describe('KYC receiver with the simulator', () => {
  let h: SimHarness;
  let receiver: KycReceiver;
  const events: KycEvent[] = [];

  beforeAll(async () => {
    const tls = await makeSelfSignedCert();
    h = await startSimHarness({
      kyc: `extraCaFile: ${tls.certFile}, duplicateProbability: "1", holdProbability: "1", minStepSeconds: 1, maxStepSeconds: 2`,
    });
    receiver = await startKycReceiver({
      host: '127.0.0.1',
      port: 0,
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      stateFile: path.join(tls.dir, 'kyc-state.json'),
      confirm: familyAConfirmation(h.clientFor(ALICE).client),
    });
    receiver.notifications$.subscribe((event) => events.push(event));
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it('registers, then emits each status change once although every delivery is duplicated', async () => {
    const client = h.clientFor(ALICE).client;
    const registered = await client.registerKycWebhook(receiver.url);
    expect(registered.validated).toBe(true);
    await receiver.idle();
    expect(events).toHaveLength(0);

    await client.kycVerify({ externalId: 'kyc-e2e', email: 'e2e@example.com', firstName: 'E', lastName: 'Two' });
    for (let due = h.sim.kyc.nextDueAt(); due !== undefined; due = h.sim.kyc.nextDueAt()) {
      if (due > h.clock.now()) h.clock.advance(due - h.clock.now());
      await h.sim.kyc.advance();
    }
    await receiver.idle();

    const statuses = events.map((e) => e.notification.status);
    expect(statuses[statuses.length - 1]).toBe('CLOSED');
    expect(statuses).toContain('ON_HOLD');
    expect(events.every((e) => e.notification.externalId === 'kyc-e2e')).toBe(true);
    expect(receiver.stats.duplicates).toBeGreaterThanOrEqual(events.length);
    const final = await client.kycStatus('kyc-e2e');
    expect(events[events.length - 1]?.notification).toMatchObject({
      status: final.status,
      decision: final.decision,
      participantId: final.participantId,
      account: final.account,
    });
  });
});
