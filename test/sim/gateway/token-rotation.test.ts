/**
 * Gateway refresh tokens rotate and sessions are revoked whole (issue 21): a refresh answers a new refresh
 * token, and presenting a spent one again (a stolen copy) revokes the whole session (its refresh token and every
 * access token it issued); logout revokes every token of the caller's session, not only those it names, while
 * other sessions of the user stay valid. The clock is the sim's injected one: nothing sleeps.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, startHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
afterEach(async () => h?.close());

describe('refresh token rotation and session revocation', () => {
  it('a refresh answers a new refresh token; the spent one presented again revokes the whole session', async () => {
    h = await startHarness();
    const login = await h.auth('login', ALICE);
    const first = String(login.body['refreshToken']);
    h.clock.advance(1000);
    const refreshed = await h.auth('refresh_access_token', { refreshToken: first });
    expect(refreshed.status).toBe(200);
    const second = String(refreshed.body['refreshToken']);
    expect(second).not.toBe('');
    expect(second).not.toBe(first);
    expect(refreshed.body['refreshExpirationTime']).toBeDefined();
    const access = String(refreshed.body['accessToken']);
    expect((await h.api('get_who_am_i', access)).status).toBe(200);
    // a stolen copy of the spent token: refused, and the session is over for everyone holding its tokens
    const reuse = await h.auth('refresh_access_token', { refreshToken: first });
    expect(reuse.status).toBe(401);
    expect(String(reuse.body['details'])).toContain('already used');
    expect((await h.auth('refresh_access_token', { refreshToken: second })).status).toBe(401);
    expect((await h.api('get_who_am_i', access)).status).toBe(401);
    expect((await h.api('get_who_am_i', String(login.body['accessToken']))).status).toBe(401);
    // the user logs in again
    expect((await h.auth('login', ALICE)).status).toBe(200);
  });

  it("logout revokes every token of the caller's session, named or not; another session stays", async () => {
    h = await startHarness();
    const login = await h.auth('login', ALICE);
    h.clock.advance(1000);
    const refreshed = await h.auth('refresh_access_token', { refreshToken: login.body['refreshToken'] });
    const other = await h.auth('login', ALICE);
    const out = await h.auth('logout', {}, { token: String(refreshed.body['accessToken']) });
    expect(out.status).toBe(200);
    expect((await h.api('get_who_am_i', String(login.body['accessToken']))).status).toBe(401);
    expect((await h.auth('refresh_access_token', { refreshToken: refreshed.body['refreshToken'] })).status).toBe(401);
    expect((await h.api('get_who_am_i', String(other.body['accessToken']))).status).toBe(200);
    expect((await h.auth('refresh_access_token', { refreshToken: other.body['refreshToken'] })).status).toBe(200);
  });
});
