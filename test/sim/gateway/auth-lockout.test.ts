/**
 * Passwords and one-time codes cannot be guessed at the request rate (issue 21): after 5 failures in a row a
 * username is locked out with a doubling back-off, answered 429 RESOURCE_EXHAUSTED with `retry-after` like the
 * gateway's other limits (even with the right password, so the lockout reveals nothing); an unknown username is
 * treated the same (no way to tell which names exist); login, enroll_mfa, confirm_mfa and change_password all
 * count; a success resets the count. The clock is the sim's injected one: nothing sleeps.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { generateTotp } from '../../../src/exchange/auth/totp.ts';
import { ALICE, startHarness, type Harness } from './helpers/harness.ts';

const MFA_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DP';
const CAROL = { username: 'carol', password: 'Demo-Carol-Pass-2026' } as const;
const EXTRA_USERS = `
    - username: carol
      password: ${CAROL.password}
      participant: firms/demo/users/carol
      accounts: [firms/demo/accounts/carol-main]
      mfaSecret: ${MFA_SECRET}
`;

let h: Harness;
afterEach(async () => h?.close());

const wrongPassword = { username: ALICE.username, password: 'Not-The-Password-2026' };

function wrongCode(nowMs: number): string {
  const valid = new Set([-30_000, 0, 30_000].map((d) => generateTotp(MFA_SECRET, nowMs + d)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

describe('failure limit with back-off', () => {
  it('locks a username out after 5 failed logins, with a doubling back-off; a success resets it', async () => {
    h = await startHarness({ extraUsers: EXTRA_USERS });
    for (let i = 0; i < 5; i++) expect((await h.auth('login', wrongPassword)).status).toBe(401);
    // the sixth attempt is refused whatever it carries, the right password included
    const locked = await h.auth('login', ALICE);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: 8, message: 'RESOURCE_EXHAUSTED' });
    expect(locked.headers.get('retry-after')).toBe('1');
    h.clock.advance(1000);
    // one more failure doubles the wait
    expect((await h.auth('login', wrongPassword)).status).toBe(401);
    const longer = await h.auth('login', ALICE);
    expect(longer.status).toBe(429);
    expect(longer.headers.get('retry-after')).toBe('2');
    h.clock.advance(2000);
    expect((await h.auth('login', ALICE)).status).toBe(200);
    // the count starts again from zero
    for (let i = 0; i < 5; i++) expect((await h.auth('login', wrongPassword)).status).toBe(401);
    expect((await h.auth('login', wrongPassword)).status).toBe(429);
  });

  it('counts wrong one-time codes of an MFA user the same way', async () => {
    h = await startHarness({ extraUsers: EXTRA_USERS });
    for (let i = 0; i < 5; i++) expect((await h.auth('login', { ...CAROL, otp: wrongCode(h.clock.t) })).status).toBe(401);
    expect((await h.auth('login', { ...CAROL, otp: generateTotp(MFA_SECRET, h.clock.t) })).status).toBe(429);
    h.clock.advance(1000);
    expect((await h.auth('login', { ...CAROL, otp: generateTotp(MFA_SECRET, h.clock.t) })).status).toBe(200);
  });

  it('treats an unknown username as a known one, and limits enroll_mfa, confirm_mfa and change_password too', async () => {
    h = await startHarness({ extraUsers: EXTRA_USERS });
    const ghost = { username: 'nobody-here', password: 'Whatever-Pass-2026' };
    for (let i = 0; i < 5; i++) expect((await h.auth('login', ghost)).status).toBe(401);
    expect((await h.auth('login', ghost)).status).toBe(429);
    for (let i = 0; i < 5; i++)
      expect((await h.auth('change_password', { username: 'bob', oldPassword: 'wrong-1', newPassword: 'x' })).status).toBe(401);
    expect((await h.auth('enroll_mfa', { username: 'bob', password: 'Demo-Bob-Pass-2026' })).status).toBe(429);
  });
});
