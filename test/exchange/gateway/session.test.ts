// Gateway session against the real simulator: login with and without MFA, MFA enrolment, register,
// password change, refresh before expiry, re-login after the refresh token expires, one refresh for
// concurrent callers, recovery from a 401, and logout revoking the tokens. Time moves by hand (sim clock).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayAuthApi, AuthedCaller, GatewayErrorCode, isGatewayError } from '../../../src/exchange/gateway/index.ts';
import { HttpTransport } from '../../../src/exchange/transport/index.ts';
import { generateTotp } from '../../../src/exchange/auth/totp.ts';
import { tokenDeadline } from '../../../src/exchange/gateway/token-deadlines.ts';
import { ManualClock, PASSWORDS, START_MS, startTestSim } from './helpers/sim.ts';
import type { TestSim } from './helpers/sim.ts';

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('token deadlines', () => {
  const policy = { marginMs: 30_000, marginFraction: 0.1 };
  it('renews 30 s early for long tokens and 10 % early for short ones, on the local send time', () => {
    expect(tokenDeadline(1_000_000, 1_900_000, 5_000, policy)).toEqual({ expiresAt: 905_000, renewAt: 875_000 });
    expect(tokenDeadline(1_000_000, 1_060_000, 5_000, policy)).toEqual({ expiresAt: 65_000, renewAt: 59_000 });
  });
  it('counts from the send time without an issue time, and never expires without an expiry', () => {
    expect(tokenDeadline(undefined, 70_000, 10_000, policy)).toEqual({ expiresAt: 70_000, renewAt: 64_000 });
    expect(tokenDeadline(0, undefined, 10_000, policy)).toEqual({ expiresAt: Infinity, renewAt: Infinity });
  });
});

describe('gateway session: login', () => {
  let t: TestSim;
  beforeEach(async () => {
    t = await startTestSim();
  });
  afterEach(async () => {
    await t.close();
  });

  it('logs in with username and password and calls with the bare token', async () => {
    const client = t.clientFor('alice');
    await client.login();
    expect(client.sessionInfo()).toMatchObject({ loggedIn: true, logins: 1, refreshes: 0 });
    const me = await client.getWhoAmI();
    expect(me).toMatchObject({ participantId: 'firms/demo/users/alice', firmId: 'demo', userId: 'alice', username: 'alice' });
  });

  it('logs in on demand before the first call', async () => {
    const client = t.clientFor('alice');
    await client.getWhoAmI();
    expect(client.sessionInfo().logins).toBe(1);
  });

  it('logs in a user with MFA by sending a TOTP code from the configured secret', async () => {
    const client = t.clientFor('carol');
    await client.login();
    expect((await client.getWhoAmI()).username).toBe('carol');
  });

  it('a second login within the same 30 s step waits for the next code instead of reusing the spent one', async () => {
    // The client's clock runs in real time from 200 ms before the end of the sim clock's step, so the wait
    // for the next step is short; the sim (clock not moved) accepts codes one step either side.
    const stepEnd = (Math.floor(START_MS / 30_000) + 1) * 30_000;
    const origin = performance.now();
    const now = () => stepEnd - 200 + Math.floor(performance.now() - origin);
    const client = t.clientFor('carol', { now });
    await client.login();
    const firstAt = now();
    await client.login(); // a refused code would fail this with GATEWAY_AUTH_FAILED
    expect(client.sessionInfo().logins).toBe(2);
    expect(firstAt).toBeLessThan(stepEnd);
    expect(now()).toBeGreaterThanOrEqual(stepEnd);
  });

  it('after a login reply lost in transit, logs in with the next code instead of resending the spent one', async () => {
    // the sim takes the first code, then the connection drops before its answer: the same body again would
    // be refused (a code is accepted once), so the session waits for the next step's code
    const stepEnd = (Math.floor(START_MS / 30_000) + 1) * 30_000;
    const origin = performance.now();
    const now = () => stepEnd - 200 + Math.floor(performance.now() - origin);
    const client = t.clientFor('carol', { now });
    t.sim.faults.resetNext(1, { path: '/auth/v1beta1/login' });
    await client.login();
    expect((await client.getWhoAmI()).username).toBe('carol');
    expect(client.sessionInfo().logins).toBe(1);
    expect(now()).toBeGreaterThanOrEqual(stepEnd);
  });

  it('refuses before sending when the user has MFA but no secret is configured (GATEWAY_MFA_REQUIRED)', async () => {
    const client = t.clientFor('carol', { credentials: { totpSecret: undefined, mfa: true } });
    const error = await failure(client.login());
    expect(isGatewayError(error, GatewayErrorCode.MfaRequired)).toBe(true);
    expect((error as Error).message).not.toContain(PASSWORDS.carol);
  });

  it('reports GATEWAY_AUTH_FAILED for an MFA user logging in without a code, with a hint', async () => {
    const client = t.clientFor('carol', { credentials: { totpSecret: undefined } });
    const error = await failure(client.login());
    expect(isGatewayError(error, GatewayErrorCode.AuthFailed)).toBe(true);
    expect((error as Error).message).toMatch(/MFA/);
    expect((error as { kind: string }).kind).toBe('authentication');
  });

  it('reports GATEWAY_AUTH_FAILED for a wrong password without leaking it', async () => {
    const client = t.clientFor('alice', { credentials: { password: 'Wrong-Password-123' } });
    const error = await failure(client.login());
    expect(isGatewayError(error, GatewayErrorCode.AuthFailed)).toBe(true);
    expect((error as { httpStatus: number }).httpStatus).toBe(401);
    expect((error as { exchange: { code: number } }).exchange.code).toBe(16);
    const text = `${(error as Error).message} ${JSON.stringify((error as { details: unknown }).details)}`;
    expect(text).not.toContain('Wrong-Password-123');
  });

  it('enrolls MFA (secret parsed from the otpauth URL), confirms it, then logs in with codes from it', async () => {
    const client = t.clientFor('dave');
    const enrollment = await client.enrollMfa();
    expect(enrollment.enrollmentUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(enrollment.secret).toMatch(/^[A-Z2-7]+=*$/);
    await expect(client.confirmMfa({ secret: enrollment.secret })).resolves.toEqual({ mfaEnabled: true });
    t.clock.advance(30_000); // a code is accepted once: the login uses the next period's code
    await client.login();
    expect(client.sessionInfo().logins).toBe(1);

    const withoutCode = t.clientFor('dave');
    expect(isGatewayError(await failure(withoutCode.login()), GatewayErrorCode.AuthFailed)).toBe(true);
    t.clock.advance(30_000);
    const withSecret = t.clientFor('dave', { credentials: { totpSecret: enrollment.secret } });
    await withSecret.login();
  });

  it('rejects a wrong MFA confirmation code with GATEWAY_REJECTED (INVALID_ARGUMENT)', async () => {
    const client = t.clientFor('dave');
    const enrollment = await client.enrollMfa();
    const right = generateTotp(enrollment.secret, t.clock.now());
    const wrong = `${right.slice(0, 5)}${(Number(right[5]) + 1) % 10}`;
    const error = await failure(client.confirmMfa({ otp: wrong }));
    expect(isGatewayError(error, GatewayErrorCode.Rejected)).toBe(true);
    expect((error as { exchange: { code: number } }).exchange.code).toBe(3);
  });

  it('registers once with a registration token, then logs in; a second registration is rejected', async () => {
    const token = await t.sim.issueRegistrationToken('erin');
    const client = t.clientFor('erin', { credentials: { password: 'Rainy-Harbor-Pass-99' } });
    expect(await client.checkPassword({ password: 'short', username: 'erin' })).toMatchObject({ valid: false });
    expect(await client.checkPassword({ password: 'Rainy-Harbor-Pass-99', username: 'erin' })).toEqual({ valid: true, messages: [] });
    expect(await client.register({ token, password: 'Rainy-Harbor-Pass-99' })).toEqual({
      username: 'erin',
      participant: 'firms/demo/users/erin',
    });
    await client.login();
    const again = await failure(client.register({ token: await t.sim.issueRegistrationToken('erin'), password: 'Rainy-Harbor-Pass-99' }));
    expect(isGatewayError(again, GatewayErrorCode.Rejected)).toBe(true);
    expect((again as { exchange: { code: number; message: string } }).exchange).toMatchObject({ code: 9, message: 'FAILED_PRECONDITION' });
  });

  it('changes the password and keeps logging in with the new one', async () => {
    const client = t.clientFor('dave');
    await client.changePassword('Quiet-River-Pass-2027!');
    await client.login();
    expect(client.sessionInfo().logins).toBe(1);
    const old = t.clientFor('dave');
    expect(isGatewayError(await failure(old.login()), GatewayErrorCode.AuthFailed)).toBe(true);
  });
});

describe('gateway session: token lifetime', () => {
  let t: TestSim;
  beforeEach(async () => {
    t = await startTestSim({ accessTtlSeconds: 60, refreshTtlSeconds: 300, users: ['alice', 'carol'] });
  });
  afterEach(async () => {
    await t.close();
  });

  it('refreshes on demand once the token is inside its margin (10% of a 60 s lifetime)', async () => {
    const client = t.clientFor('alice');
    await client.login();
    const info = client.sessionInfo();
    expect(info.accessExpiresAt).toBe(START_MS + 60_000);
    expect(info.accessRefreshAt).toBe(START_MS + 54_000);
    t.clock.advance(53_000);
    await client.getWhoAmI();
    expect(client.sessionInfo()).toMatchObject({ logins: 1, refreshes: 0 });
    t.clock.advance(2_000);
    await client.getWhoAmI();
    expect(client.sessionInfo()).toMatchObject({ logins: 1, refreshes: 1, accessExpiresAt: START_MS + 115_000 });
  });

  it('refreshes an already expired access token with the refresh token', async () => {
    const client = t.clientFor('alice');
    await client.login();
    t.clock.advance(120_000);
    await client.getWhoAmI();
    expect(client.sessionInfo()).toMatchObject({ logins: 1, refreshes: 1 });
  });

  it('logs in again once the refresh token has expired', async () => {
    const client = t.clientFor('carol');
    await client.login();
    t.clock.advance(301_000);
    await client.getWhoAmI();
    expect(client.sessionInfo()).toMatchObject({ logins: 2, refreshes: 0 });
  });

  it('shares one refresh between concurrent callers', async () => {
    const client = t.clientFor('alice');
    await client.login();
    t.clock.advance(58_000);
    const results = await Promise.all(Array.from({ length: 8 }, () => client.getWhoAmI()));
    expect(results.every((r) => r.username === 'alice')).toBe(true);
    expect(client.sessionInfo()).toMatchObject({ logins: 1, refreshes: 1 });
  });

  it('refreshes and retries once when a call is answered 401 (client clock behind the gateway)', async () => {
    const clientClock = new ManualClock(START_MS);
    const client = t.clientFor('alice', { now: clientClock.now });
    await client.login();
    t.clock.advance(61_000); // the gateway sees the token expired; the client does not know yet
    expect((await client.getWhoAmI()).username).toBe('alice');
    expect(client.sessionInfo()).toMatchObject({ logins: 1, refreshes: 1 });
  });

  it('logs in again when the refresh is refused with 401 (refresh token expired on the gateway)', async () => {
    const clientClock = new ManualClock(START_MS);
    const client = t.clientFor('alice', { now: clientClock.now });
    await client.login();
    t.clock.advance(301_000);
    expect((await client.getWhoAmI()).username).toBe('alice');
    expect(client.sessionInfo()).toMatchObject({ logins: 2, refreshes: 0 });
  });

  it('refreshAccessToken() refreshes now', async () => {
    const client = t.clientFor('alice');
    await client.login();
    await client.refreshAccessToken();
    expect(client.sessionInfo()).toMatchObject({ logins: 1, refreshes: 1 });
  });

  it('refreshes again with the rotated refresh token the gateway answered (the spent one would end the session)', async () => {
    const client = t.clientFor('alice');
    await client.login();
    await client.refreshAccessToken();
    await client.refreshAccessToken();
    expect(client.sessionInfo()).toMatchObject({ logins: 1, refreshes: 2 });
    expect((await client.getWhoAmI()).username).toBe('alice');
  });
});

describe('gateway session: logout', () => {
  let t: TestSim;
  const transports: HttpTransport[] = [];
  beforeEach(async () => {
    t = await startTestSim({ users: ['alice', 'bob'] });
  });
  afterEach(async () => {
    await Promise.all(transports.splice(0).map((x) => x.close()));
    await t.close();
  });

  it('revokes both tokens: the access token then gets 401 and the refresh token is refused', async () => {
    const http = new HttpTransport({ baseUrl: t.gatewayUrl });
    transports.push(http);
    const auth = new GatewayAuthApi(http);
    const tokens = await auth.login({ username: 'bob', password: PASSWORDS.bob, otp: '' });
    const fixed = { accessToken: async () => tokens.accessToken, recoverFromUnauthorized: async () => tokens.accessToken };
    const caller = new AuthedCaller(http, fixed);
    await caller.call('get_who_am_i', {}, { idempotent: true });
    await auth.logout({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
    const afterLogout = await failure(caller.call('get_who_am_i', {}, { idempotent: true }));
    expect(isGatewayError(afterLogout, GatewayErrorCode.AuthFailed)).toBe(true);
    expect((afterLogout as { httpStatus: number }).httpStatus).toBe(401);
    expect((afterLogout as Error).message).not.toContain(tokens.accessToken);
    expect(isGatewayError(await failure(auth.refreshAccessToken(tokens.refreshToken)), GatewayErrorCode.AuthFailed)).toBe(true);
  });

  it('client.logout() closes the session: later calls fail with GATEWAY_SESSION_CLOSED without a request', async () => {
    const client = t.clientFor('alice');
    await client.login();
    await client.logout();
    expect(client.sessionInfo()).toMatchObject({ loggedIn: false, closed: true });
    expect(isGatewayError(await failure(client.getWhoAmI()), GatewayErrorCode.SessionClosed)).toBe(true);
    await client.logout(); // idempotent
  });
});
