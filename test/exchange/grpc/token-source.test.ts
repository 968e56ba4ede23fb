/**
 * tokenSourceOf: the family A token manager behind the gRPC client's getToken(forceRefresh?, rejected?): a
 * forced refresh invalidates exactly the refused token (else the one last handed out), then gets the current
 * one; a late refusal of an old token does not throw away the token another caller already renewed.
 */
import { describe, expect, it } from 'vitest';
import { tokenSourceOf } from '../../../src/exchange/grpc/index.ts';

function fakeManager() {
  let cached: string | undefined;
  let minted = 0;
  const invalidated: (string | undefined)[] = [];
  return {
    invalidated,
    minted: () => minted,
    getToken: async () => (cached ??= `t${++minted}`),
    invalidate: (rejected?: string) => {
      invalidated.push(rejected);
      if (rejected === undefined || rejected === cached) cached = undefined;
    },
  };
}

describe('tokenSourceOf', () => {
  it('hands out the cached token, and after a forced refresh a new one', async () => {
    const manager = fakeManager();
    const invalidated = manager.invalidated;
    const getToken = tokenSourceOf(manager);
    expect(await getToken()).toBe('t1');
    expect(await getToken()).toBe('t1');
    expect(await getToken(true)).toBe('t2');
    expect(invalidated).toEqual(['t1']);
    expect(await getToken()).toBe('t2');
  });

  it('streams refused with the same old token renew it once; a late refusal keeps the renewed token', async () => {
    const manager = fakeManager();
    const a = tokenSourceOf(manager);
    const b = tokenSourceOf(manager);
    expect(await a()).toBe('t1');
    expect(await b()).toBe('t1');
    // a is refused with t1 and renews; b was refused with t1 too, but reports it only now
    expect(await a(true, 't1')).toBe('t2');
    expect(await b(true, 't1')).toBe('t2');
    expect(manager.minted()).toBe(2);
    expect(manager.invalidated).toEqual(['t1', 't1']);
    // without `rejected`, the token this source handed out last is the refused one
    expect(await b(true)).toBe('t3');
  });
});
