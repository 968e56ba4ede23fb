/**
 * The family A verifier: the sim's own access tokens open gRPC calls (scopes and firm accounts from the
 * token and the directory), an expired one is UNAUTHENTICATED, one whose client was offboarded is refused.
 */
import { describe, expect, it } from 'vitest';
import { AccessTokenService } from '../../../src/sim/familya/access-tokens.ts';
import type { SimApiClient } from '../../../src/sim/familya/clients.ts';
import { familyAVerifier } from '../../../src/sim/grpc/index.ts';
import { ALICE_HEDGE, ALICE_MAIN, ManualClock } from './helpers/harness.ts';

const client: SimApiClient = { clientId: 'bot-1', publicKeys: [], scopes: ['read:marketdata', 'read:orders'], participant: 'firms/demo/users/alice', firm: 'demo', allowlist: undefined };

describe('familyAVerifier', () => {
  it('accepts the sim family A access tokens and refuses expired or offboarded ones', async () => {
    const clock = new ManualClock();
    const tokens = await AccessTokenService.create(clock);
    tokens.bind('http://127.0.0.1:1', 'http://127.0.0.1:2');
    const onboarded = new Map<string, SimApiClient>([[client.clientId, client]]);
    const verify = familyAVerifier({ tokens, clients: onboarded, directory: { accountsOfFirm: (firm) => (firm === 'demo' ? [ALICE_MAIN, ALICE_HEDGE] : []) } });
    const { token } = await tokens.issue(client, 180);
    expect(await verify(token)).toEqual({ scopes: ['read:marketdata', 'read:orders'], firm: 'demo', participant: 'firms/demo/users/alice', accounts: [ALICE_MAIN, ALICE_HEDGE] });
    expect(await verify(`${token}x`)).toBe('invalid');
    onboarded.delete(client.clientId);
    expect(await verify(token)).toBe('invalid');
    onboarded.set(client.clientId, client);
    clock.advance(181_000);
    expect(await verify(token)).toBe('expired');
  });
});
