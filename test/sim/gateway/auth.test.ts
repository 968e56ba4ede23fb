/**
 * The simulator gateway's authentication endpoints (/auth/v1beta1) on the wire: login (with and without
 * MFA), refresh, token expiry on the injected clock, logout revocation, the bare-token rule, one-time
 * registration, check_password, change_password and MFA enrolment. Raw HTTP only; every failure is
 * checked for its status and `{code, message, details}` body.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateTotp, secretFromEnrollmentUrl } from '../../../src/exchange/auth/totp.ts';
import { ALICE, ALICE_MAIN, BOB, startHarness, type Harness } from './helpers/harness.ts';

const MFA_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DP';
const CAROL = { username: 'carol', password: 'Demo-Carol-Pass-2026' } as const;
const DAVE = { username: 'dave', password: 'Chosen-Secret-2026!' } as const;
const BAD_LOGIN = 'invalid username, password or one-time code';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const EXTRA_USERS = `
    - username: carol
      password: ${CAROL.password}
      participant: firms/demo/users/carol
      accounts: [firms/demo/accounts/carol-main]
      mfaSecret: ${MFA_SECRET}
    - username: dave
      password: placeholder-never-used
      participant: firms/demo/users/dave
      accounts: [firms/demo/accounts/dave-main]
      registered: false
`;

let h: Harness;

async function start(gateway?: string): Promise<Harness> {
  if (shared) return h;
  h = await startHarness({ extraUsers: EXTRA_USERS, ...(gateway === undefined ? {} : { gateway }) });
  return h;
}

let shared = false;

afterEach(async () => {
  if (!shared) await h?.close();
});

/** One simulator for the read-only tests of the enclosing describe (their `start()` calls reuse it). */
function simPerDescribe(): void {
  beforeAll(async () => {
    await start();
    shared = true;
  });
  afterAll(async () => {
    shared = false;
    await h.close();
  });
}

/** A 6-digit code valid in none of the periods around `nowMs` (so the server must refuse it). */
function wrongCode(secret: string, nowMs: number): string {
  const valid = new Set([-30_000, 0, 30_000].map((d) => generateTotp(secret, nowMs + d)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

function expectError(response: { status: number; body: Record<string, unknown> }, status: number, code: number, message: string): void {
  expect(response.status).toBe(status);
  expect(response.body['code']).toBe(code);
  expect(response.body['message']).toBe(message);
  expect(typeof response.body['details']).toBe('string');
}

describe('gateway login', () => {
  simPerDescribe();

  it('answers a good login with both tokens and the four ISO times from the sim clock', async () => {
    await start();
    const response = await h.auth('login', ALICE);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual([
      'accessExpirationTime',
      'accessIssueTime',
      'accessToken',
      'refreshExpirationTime',
      'refreshIssueTime',
      'refreshToken',
    ]);
    expect(body['accessToken']).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body['refreshToken']).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body['accessToken']).not.toBe(body['refreshToken']);
    for (const key of ['accessIssueTime', 'accessExpirationTime', 'refreshIssueTime', 'refreshExpirationTime'])
      expect(body[key]).toMatch(ISO_UTC);
    expect(body['accessIssueTime']).toBe(new Date(h.clock.t).toISOString());
    expect(body['accessExpirationTime']).toBe(new Date(h.clock.t + 900_000).toISOString());
    expect(body['refreshExpirationTime']).toBe(new Date(h.clock.t + 86_400_000).toISOString());
  });

  it('puts exp, sub and typ in the access JWT', async () => {
    await start();
    const token = await h.login(ALICE);
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(payload['sub']).toBe('alice');
    expect(payload['typ']).toBe('access');
    expect(payload['exp']).toBe(Math.floor(h.clock.t / 1000) + 900);
    expect(typeof payload['jti']).toBe('string');
  });

  it('refuses a wrong password with 401 and the generic message', async () => {
    await start();
    const response = await h.auth('login', { username: 'alice', password: 'Wrong-Password-123' });
    expectError(response, 401, 16, 'UNAUTHENTICATED');
    expect(response.body['details']).toBe(BAD_LOGIN);
  });

  it('answers an unknown username exactly like a wrong password, so usernames cannot be probed', async () => {
    await start();
    const unknown = await h.auth('login', { username: 'mallory', password: ALICE.password });
    const wrong = await h.auth('login', { username: 'alice', password: 'Wrong-Password-123' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses a login body without a password as INVALID_ARGUMENT', async () => {
    await start();
    const response = await h.auth('login', { username: 'alice' });
    expectError(response, 400, 3, 'INVALID_ARGUMENT');
  });
});

describe('gateway login with MFA', () => {
  simPerDescribe();
  // a code is accepted once per user: each test starts three periods after the codes of the previous one
  beforeEach(() => h.clock.advance(90_000));

  it('refuses an MFA user who sends no otp with 401', async () => {
    await start();
    const response = await h.auth('login', CAROL);
    expectError(response, 401, 16, 'UNAUTHENTICATED');
  });

  it('accepts an MFA user with a valid TOTP code for the sim clock', async () => {
    await start();
    const response = await h.auth('login', { ...CAROL, otp: generateTotp(MFA_SECRET, h.clock.t) });
    expect(response.status).toBe(200);
    expect(typeof response.body['accessToken']).toBe('string');
  });

  it('accepts a code from the previous 30 s period (one period either side)', async () => {
    await start();
    const response = await h.auth('login', { ...CAROL, otp: generateTotp(MFA_SECRET, h.clock.t - 30_000) });
    expect(response.status).toBe(200);
  });

  it('refuses a wrong code with 401 and the generic message', async () => {
    await start();
    const response = await h.auth('login', { ...CAROL, otp: wrongCode(MFA_SECRET, h.clock.t) });
    expectError(response, 401, 16, 'UNAUTHENTICATED');
    expect(response.body['details']).toBe(BAD_LOGIN);
  });

  it('refuses a code from two periods ago', async () => {
    await start();
    const stale = generateTotp(MFA_SECRET, h.clock.t - 90_000);
    const current = new Set([-30_000, 0, 30_000].map((d) => generateTotp(MFA_SECRET, h.clock.t + d)));
    expect(current.has(stale)).toBe(false);
    const response = await h.auth('login', { ...CAROL, otp: stale });
    expect(response.status).toBe(401);
  });

  it("accepts a code once: the same code is refused afterwards (RFC 6238 5.2), the next period's code is accepted", async () => {
    await start();
    const code = generateTotp(MFA_SECRET, h.clock.t);
    expect((await h.auth('login', { ...CAROL, otp: code })).status).toBe(200);
    const replay = await h.auth('login', { ...CAROL, otp: code });
    expectError(replay, 401, 16, 'UNAUTHENTICATED');
    expect(replay.body['details']).toBe(BAD_LOGIN);
    // an earlier period's code, still inside the window, is refused too
    expect((await h.auth('login', { ...CAROL, otp: generateTotp(MFA_SECRET, h.clock.t - 30_000) })).status).toBe(401);
    h.clock.advance(30_000);
    expect((await h.auth('login', { ...CAROL, otp: generateTotp(MFA_SECRET, h.clock.t) })).status).toBe(200);
  });

  it('a code used for a failed login (wrong password) is not spent', async () => {
    await start();
    const code = generateTotp(MFA_SECRET, h.clock.t);
    expect((await h.auth('login', { username: 'carol', password: 'Wrong-Password-123', otp: code })).status).toBe(401);
    expect((await h.auth('login', { ...CAROL, otp: code })).status).toBe(200);
  });

  it('a code spent on enroll_mfa cannot log in', async () => {
    await start();
    const code = generateTotp(MFA_SECRET, h.clock.t);
    expect((await h.auth('enroll_mfa', { ...CAROL, otp: code })).status).toBe(200);
    expect((await h.auth('login', { ...CAROL, otp: code })).status).toBe(401);
  });

  it('refuses a good code with a wrong password with the generic message', async () => {
    await start();
    const response = await h.auth('login', { username: 'carol', password: 'Wrong-Password-123', otp: generateTotp(MFA_SECRET, h.clock.t) });
    expect(response.status).toBe(401);
    expect(response.body['details']).toBe(BAD_LOGIN);
  });
});

describe('MFA enrolment', () => {
  it('enroll_mfa returns an otpauth://totp URL (SHA-1, 6 digits, 30 s) and does not yet require otp', async () => {
    await start();
    const response = await h.auth('enroll_mfa', ALICE);
    expect(response.status).toBe(200);
    const url = String(response.body['enrollmentUrl']);
    expect(url).toMatch(/^otpauth:\/\/totp\//);
    const params = new URL(url).searchParams;
    expect(params.get('secret')).toMatch(/^[A-Z2-7]+=*$/);
    expect(params.get('algorithm') ?? 'SHA1').toBe('SHA1');
    expect(params.get('digits') ?? '6').toBe('6');
    expect(params.get('period') ?? '30').toBe('30');
    expect((await h.auth('login', ALICE)).status).toBe(200);
  });

  it('confirm_mfa with a code from the URL secret enables MFA: the next login needs otp', async () => {
    await start();
    const enrolled = await h.auth('enroll_mfa', ALICE);
    const secret = secretFromEnrollmentUrl(String(enrolled.body['enrollmentUrl']));
    const confirmed = await h.auth('confirm_mfa', { ...ALICE, otp: generateTotp(secret, h.clock.t) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ mfaEnabled: true });
    expect((await h.auth('login', ALICE)).status).toBe(401);
    // the confirmation spent this period's code: the same code cannot log in, the next period's can
    expect((await h.auth('login', { ...ALICE, otp: generateTotp(secret, h.clock.t) })).status).toBe(401);
    h.clock.advance(30_000);
    const withCode = await h.auth('login', { ...ALICE, otp: generateTotp(secret, h.clock.t) });
    expect(withCode.status).toBe(200);
  });

  it('confirm_mfa with a wrong code is INVALID_ARGUMENT and leaves MFA off', async () => {
    await start();
    const enrolled = await h.auth('enroll_mfa', ALICE);
    const secret = secretFromEnrollmentUrl(String(enrolled.body['enrollmentUrl']));
    const confirmed = await h.auth('confirm_mfa', { ...ALICE, otp: wrongCode(secret, h.clock.t) });
    expectError(confirmed, 400, 3, 'INVALID_ARGUMENT');
    expect((await h.auth('login', ALICE)).status).toBe(200);
  });

  it('confirm_mfa before enroll_mfa is FAILED_PRECONDITION (400, code 9)', async () => {
    await start();
    const confirmed = await h.auth('confirm_mfa', { ...ALICE, otp: '123456' });
    expectError(confirmed, 400, 9, 'FAILED_PRECONDITION');
  });

  it('enroll_mfa with a wrong password is 401', async () => {
    await start();
    const response = await h.auth('enroll_mfa', { username: 'alice', password: 'Wrong-Password-123' });
    expectError(response, 401, 16, 'UNAUTHENTICATED');
  });
});

describe('tokens: refresh, expiry, logout, bare token', () => {
  it('refresh_access_token returns a new access token that works on the API', async () => {
    await start();
    const login = await h.auth('login', ALICE);
    h.clock.advance(60_000);
    const refreshed = await h.auth('refresh_access_token', { refreshToken: login.body['refreshToken'] });
    expect(refreshed.status).toBe(200);
    // the refresh token rotates (token-rotation.test.ts): a new one comes with the access token
    expect(Object.keys(refreshed.body).sort()).toEqual([
      'accessExpirationTime',
      'accessIssueTime',
      'accessToken',
      'refreshExpirationTime',
      'refreshIssueTime',
      'refreshToken',
    ]);
    expect(refreshed.body['accessToken']).not.toBe(login.body['accessToken']);
    expect(refreshed.body['accessIssueTime']).toBe(new Date(h.clock.t).toISOString());
    const whoami = await h.api('get_who_am_i', String(refreshed.body['accessToken']));
    expect(whoami.status).toBe(200);
    expect(whoami.body['username']).toBe('alice');
  });

  it('refuses an access token offered as a refresh token (401)', async () => {
    await start();
    const login = await h.auth('login', ALICE);
    const refreshed = await h.auth('refresh_access_token', { refreshToken: login.body['accessToken'] });
    expectError(refreshed, 401, 16, 'UNAUTHENTICATED');
  });

  it('refuses a refresh token used as the Authorization token (401)', async () => {
    await start();
    const login = await h.auth('login', ALICE);
    const response = await h.api('get_who_am_i', String(login.body['refreshToken']));
    expectError(response, 401, 16, 'UNAUTHENTICATED');
  });

  it('refuses an access token once the sim clock passes accessTokenTtlSeconds (401), and refresh revives access', async () => {
    await start('rateLimitPerSecond: 10000, accessTokenTtlSeconds: 60');
    const login = await h.auth('login', ALICE);
    const token = String(login.body['accessToken']);
    h.clock.advance(59_000);
    expect((await h.api('get_who_am_i', token)).status).toBe(200);
    h.clock.advance(2_000);
    const expired = await h.api('get_who_am_i', token);
    expectError(expired, 401, 16, 'UNAUTHENTICATED');
    expect(expired.body['details']).toContain('expired');
    const refreshed = await h.auth('refresh_access_token', { refreshToken: login.body['refreshToken'] });
    expect(refreshed.status).toBe(200);
    expect((await h.api('get_who_am_i', String(refreshed.body['accessToken']))).status).toBe(200);
  });

  it('refuses an expired refresh token (401)', async () => {
    await start('rateLimitPerSecond: 10000, refreshTokenTtlSeconds: 120');
    const login = await h.auth('login', ALICE);
    h.clock.advance(121_000);
    const refreshed = await h.auth('refresh_access_token', { refreshToken: login.body['refreshToken'] });
    expectError(refreshed, 401, 16, 'UNAUTHENTICATED');
  });

  it('logout revokes the access and refresh tokens: later calls and refreshes are 401', async () => {
    await start();
    const login = await h.auth('login', ALICE);
    const access = String(login.body['accessToken']);
    const refresh = String(login.body['refreshToken']);
    const out = await h.auth('logout', { accessToken: access, refreshToken: refresh }, { token: access });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({});
    expectError(await h.api('get_who_am_i', access), 401, 16, 'UNAUTHENTICATED');
    expectError(await h.auth('refresh_access_token', { refreshToken: refresh }), 401, 16, 'UNAUTHENTICATED');
    expect((await h.auth('logout', {}, { token: access })).status).toBe(401);
  });

  it('logout revokes only the caller: another session of the same user keeps working', async () => {
    await start();
    const first = await h.login(ALICE);
    h.clock.advance(1000);
    const second = await h.login(ALICE);
    expect((await h.auth('logout', {}, { token: first })).status).toBe(200);
    expect((await h.api('get_who_am_i', first)).status).toBe(401);
    expect((await h.api('get_who_am_i', second)).status).toBe(200);
  });

  it("logout cannot revoke another user's tokens named in the body", async () => {
    await start();
    const alice = await h.login(ALICE);
    const bobLogin = await h.auth('login', BOB);
    const out = await h.auth(
      'logout',
      { accessToken: bobLogin.body['accessToken'], refreshToken: bobLogin.body['refreshToken'] },
      { token: alice },
    );
    expect(out.status).toBe(200);
    expect((await h.api('get_who_am_i', String(bobLogin.body['accessToken']))).status).toBe(200);
    expect((await h.auth('refresh_access_token', { refreshToken: bobLogin.body['refreshToken'] })).status).toBe(200);
  });

  it('logout without Authorization is 401', async () => {
    await start();
    expectError(await h.auth('logout', {}), 401, 16, 'UNAUTHENTICATED');
  });

  it('refuses a "Bearer " prefixed token with 401 though the token itself is valid', async () => {
    await start();
    const token = await h.login(ALICE);
    const response = await h.post('/api/v1beta1/get_who_am_i', {}, { token: `Bearer ${token}` });
    expectError(response, 401, 16, 'UNAUTHENTICATED');
    expect(response.body['details']).toContain('Bearer');
    expect((await h.post('/api/v1beta1/get_who_am_i', {}, { token: `bearer ${token}` })).status).toBe(401);
  });

  it.each([
    ['garbage', 'not-a-token'],
    ['three dotted parts', 'abc.def.ghi'],
    [
      'an unsigned JWT',
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"alice","typ":"access"}').toString('base64url')}.`,
    ],
  ])('refuses a malformed token (%s) with 401', async (_name, token) => {
    await start();
    expectError(await h.api('get_who_am_i', token), 401, 16, 'UNAUTHENTICATED');
  });

  it('refuses a token with a forged signature (401)', async () => {
    await start();
    const token = await h.login(ALICE);
    const [header, payload, signature = ''] = token.split('.');
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expectError(await h.api('get_who_am_i', `${header}.${payload}.${flipped}`), 401, 16, 'UNAUTHENTICATED');
  });

  it('refuses a request without Authorization (401)', async () => {
    await start();
    expectError(await h.post('/api/v1beta1/get_open_orders', {}), 401, 16, 'UNAUTHENTICATED');
  });
});

describe('registration', () => {
  it('an unregistered user cannot log in until registering with a registration token', async () => {
    await start();
    expect((await h.auth('login', { username: 'dave', password: 'placeholder-never-used' })).status).toBe(401);
    const token = await h.sim.issueRegistrationToken('dave');
    const registered = await h.auth('register', { token, password: DAVE.password });
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({ username: 'dave', participant: 'firms/demo/users/dave' });
    expect((await h.auth('login', DAVE)).status).toBe(200);
  });

  it('registration works once: the same token again is refused, a fresh token is FAILED_PRECONDITION', async () => {
    await start();
    const token = await h.sim.issueRegistrationToken('dave');
    expect((await h.auth('register', { token, password: DAVE.password })).status).toBe(200);
    const reused = await h.auth('register', { token, password: 'Another-Pass-2026!' });
    expectError(reused, 401, 16, 'UNAUTHENTICATED');
    const fresh = await h.sim.issueRegistrationToken('dave');
    const again = await h.auth('register', { token: fresh, password: 'Another-Pass-2026!' });
    expectError(again, 400, 9, 'FAILED_PRECONDITION');
    expect((await h.auth('login', DAVE)).status).toBe(200);
    expect((await h.auth('login', { username: 'dave', password: 'Another-Pass-2026!' })).status).toBe(401);
  });

  it('refuses a weak password without consuming the token', async () => {
    await start();
    const token = await h.sim.issueRegistrationToken('dave');
    const weak = await h.auth('register', { token, password: 'short' });
    expectError(weak, 400, 3, 'INVALID_ARGUMENT');
    expect(weak.body['details']).toContain('at least 12 characters');
    expect((await h.auth('register', { token, password: DAVE.password })).status).toBe(200);
  });

  it('refuses an access token in place of a registration token (401)', async () => {
    await start();
    const access = await h.login(ALICE);
    expectError(await h.auth('register', { token: access, password: DAVE.password }), 401, 16, 'UNAUTHENTICATED');
  });

  it('refuses an expired registration token (401)', async () => {
    await start('rateLimitPerSecond: 10000, registrationTokenTtlSeconds: 60');
    const token = await h.sim.issueRegistrationToken('dave');
    h.clock.advance(61_000);
    expectError(await h.auth('register', { token, password: DAVE.password }), 401, 16, 'UNAUTHENTICATED');
  });

  it('the sim-only /sim/v1/registration_token endpoint hands out a working registration token', async () => {
    await start();
    const issued = await h.post('/sim/v1/registration_token', { username: 'dave' });
    expect(issued.status).toBe(200);
    expect(issued.body['expirationTime']).toBe(new Date(h.clock.t + 86_400_000).toISOString());
    expect((await h.auth('register', { token: issued.body['token'], password: DAVE.password })).status).toBe(200);
    const unknown = await h.post('/sim/v1/registration_token', { username: 'zed' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 5, message: 'NOT_FOUND' });
  });

  it('refuses a registration token for an already registered user with FAILED_PRECONDITION', async () => {
    await start();
    const token = await h.sim.issueRegistrationToken('alice');
    expectError(await h.auth('register', { token, password: 'Alice-New-Pass-2026!' }), 400, 9, 'FAILED_PRECONDITION');
    expect((await h.auth('login', ALICE)).status).toBe(200);
  });
});

describe('check_password', () => {
  simPerDescribe();

  it('check_password lists every broken rule for a weak password', async () => {
    await start();
    const response = await h.auth('check_password', { password: 'aaaa', username: 'alice' });
    expect(response.status).toBe(200);
    expect(response.body['valid']).toBe(false);
    const messages = response.body['messages'] as string[];
    expect(messages).toEqual(
      expect.arrayContaining([
        'use at least 12 characters',
        'mix at least three of: lower case, upper case, digits, symbols',
        'do not repeat a character more than 3 times in a row',
      ]),
    );
  });

  it('check_password accepts a strong password with no messages', async () => {
    await start();
    const response = await h.auth('check_password', { password: 'Correct-Horse-Battery-9' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ valid: true, messages: [] });
  });

  it.each([
    ['containing the username', 'Alice-Rules-2026!', 'do not include the username'],
    ['well known', 'Password123', 'use at least 12 characters'],
    ['too long', `Aa1!${'x'.repeat(125)}`, 'use at most 128 characters'],
  ])('check_password refuses a password %s', async (_name, password, message) => {
    await start();
    const response = await h.auth('check_password', { password, username: 'alice' });
    expect(response.body['valid']).toBe(false);
    expect(response.body['messages']).toContain(message);
  });

  it('check_password with a non-string password is INVALID_ARGUMENT', async () => {
    await start();
    expectError(await h.auth('check_password', { password: 42 }), 400, 3, 'INVALID_ARGUMENT');
  });
});

describe('auth rate limit', () => {
  it('limits /auth calls per client address: beyond rateLimitPerSecond they are 429 with retry-after', async () => {
    await start('rateLimitPerSecond: 5');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await h.auth('check_password', { password: 'x' });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.body).toMatchObject({ code: 8, message: 'RESOURCE_EXHAUSTED' });
        expect(response.headers.get('retry-after')).toBe('1');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    h.clock.advance(1000);
    expect((await h.auth('check_password', { password: 'x' })).status).toBe(200);
  });
});

describe('change_password', () => {
  it('change_password then login works only with the new password', async () => {
    await start();
    const changed = await h.auth('change_password', {
      username: 'alice',
      oldPassword: ALICE.password,
      newPassword: 'Brand-New-Pass-2026!',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({});
    expect((await h.auth('login', ALICE)).status).toBe(401);
    expect((await h.auth('login', { username: 'alice', password: 'Brand-New-Pass-2026!' })).status).toBe(200);
  });

  it('change_password with a wrong old password is 401 and changes nothing', async () => {
    await start();
    const changed = await h.auth('change_password', {
      username: 'alice',
      oldPassword: 'Wrong-Password-123',
      newPassword: 'Brand-New-Pass-2026!',
    });
    expectError(changed, 401, 16, 'UNAUTHENTICATED');
    expect((await h.auth('login', ALICE)).status).toBe(200);
  });

  it('change_password to a weak password is INVALID_ARGUMENT and keeps the old one', async () => {
    await start();
    const changed = await h.auth('change_password', { username: 'alice', oldPassword: ALICE.password, newPassword: 'weak' });
    expectError(changed, 400, 3, 'INVALID_ARGUMENT');
    expect((await h.auth('login', ALICE)).status).toBe(200);
  });
});

describe('auth endpoints and the API share the user store', () => {
  it("a token from login trades on the user's own account", async () => {
    await start();
    const token = await h.login(ALICE);
    const response = await h.api('get_open_orders', token, { accounts: [ALICE_MAIN] });
    expect(response.status).toBe(200);
  });
});
