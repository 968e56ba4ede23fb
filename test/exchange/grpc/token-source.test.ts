/**
 * tokenSourceOf: the family A token manager behind the gRPC client's getToken(forceRefresh?): a forced
 * refresh invalidates exactly the token last handed out, then gets a new one.
 */
import { describe, expect, it } from 'vitest';
import { tokenSourceOf } from '../../../src/exchange/grpc/index.ts';

describe('tokenSourceOf', () => {
  it('hands out the cached token, and after a forced refresh a new one', async () => {
    let cached: string | undefined;
    let minted = 0;
    const invalidated: (string | undefined)[] = [];
    const manager = {
      getToken: async () => (cached ??= `t${++minted}`),
      invalidate: (rejected?: string) => {
        invalidated.push(rejected);
        if (rejected === undefined || rejected === cached) cached = undefined;
      },
    };
    const getToken = tokenSourceOf(manager);
    expect(await getToken()).toBe('t1');
    expect(await getToken()).toBe('t1');
    expect(await getToken(true)).toBe('t2');
    expect(invalidated).toEqual(['t1']);
    expect(await getToken()).toBe('t2');
  });
});
