/**
 * The family A verifier: the sim's own access tokens open gRPC calls (scopes and firm accounts from the
 * token and the directory), an expired one is UNAUTHENTICATED, one whose client was offboarded is refused,
 * one from an address off its client's allowlist is refused; and the peer address of grpc-js peer strings.
 */
import { describe, expect, it } from 'vitest';
import { AccessTokenService } from '../../../src/sim/familya/access-tokens.ts';
import type { SimApiClient } from '../../../src/sim/familya/clients.ts';
import { familyAVerifier } from '../../../src/sim/grpc/index.ts';
import { peerAddress } from '../../../src/sim/grpc/auth.ts';
import { BlockList } from 'node:net';
import { ALICE_HEDGE, ALICE_MAIN, ManualClock } from './helpers/harness.ts';

const client: SimApiClient = {
  clientId: 'bot-1',
  publicKeys: [],
  scopes: ['read:marketdata', 'read:orders'],
  participant: 'firms/demo/users/alice',
  firm: 'demo',
  allowlist: undefined,
};

describe('familyAVerifier', () => {
  it('accepts the sim family A access tokens and refuses expired or offboarded ones', async () => {
    const clock = new ManualClock();
    const tokens = await AccessTokenService.create(clock);
    tokens.bind('http://127.0.0.1:1', 'http://127.0.0.1:2');
    const onboarded = new Map<string, SimApiClient>([[client.clientId, client]]);
    const verify = familyAVerifier({
      tokens,
      clients: onboarded,
      directory: { accountsOfFirm: (firm) => (firm === 'demo' ? [ALICE_MAIN, ALICE_HEDGE] : []) },
    });
    const { token } = await tokens.issue(client, 180);
    expect(await verify(token, '127.0.0.1')).toEqual({
      scopes: ['read:marketdata', 'read:orders'],
      firm: 'demo',
      participant: 'firms/demo/users/alice',
      accounts: [ALICE_MAIN, ALICE_HEDGE],
    });
    expect(await verify(`${token}x`, '127.0.0.1')).toBe('invalid');
    onboarded.delete(client.clientId);
    expect(await verify(token, '127.0.0.1')).toBe('invalid');
    onboarded.set(client.clientId, client);
    clock.advance(181_000);
    expect(await verify(token, '127.0.0.1')).toBe('expired');
  });

  it("refuses a token presented from an address its client's allowlist does not hold, as /v1 does", async () => {
    const clock = new ManualClock();
    const tokens = await AccessTokenService.create(clock);
    tokens.bind('http://127.0.0.1:1', 'http://127.0.0.1:2');
    const allowlist = new BlockList();
    allowlist.addSubnet('10.0.0.0', 8, 'ipv4');
    const fenced: SimApiClient = { ...client, allowlist };
    const verify = familyAVerifier({
      tokens,
      clients: new Map([[fenced.clientId, fenced]]),
      directory: { accountsOfFirm: () => [ALICE_MAIN] },
    });
    const { token } = await tokens.issue(fenced, 180);
    expect(await verify(token, '127.0.0.1')).toBe('address-not-allowed');
    expect(await verify(token, '10.1.2.3')).toMatchObject({ firm: 'demo', accounts: [ALICE_MAIN] });
  });
});

describe('peerAddress', () => {
  it('takes the IP address out of the peer strings grpc-js gives', () => {
    expect(peerAddress('127.0.0.1:50123')).toBe('127.0.0.1');
    expect(peerAddress('ipv4:10.0.0.7:443')).toBe('10.0.0.7');
    expect(peerAddress('[::1]:50123')).toBe('::1');
    expect(peerAddress('ipv6:[::ffff:127.0.0.1]:80')).toBe('::ffff:127.0.0.1');
    expect(peerAddress('::1')).toBe('::1');
  });
});
