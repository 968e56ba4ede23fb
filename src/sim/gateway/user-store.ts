/**
 * The simulator's gateway users: scrypt password hashes (the plain password is never kept), MFA state
 * (a pending secret from `enroll_mfa`, an active one after `confirm_mfa`, the time step of the last accepted
 * one-time code), registration, and the participant and accounts each user may trade.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export interface SimUser {
  username: string;
  participant: string;
  firm: string;
  accounts: string[];
  registered: boolean;
  mfaSecret: string | undefined;
  pendingMfaSecret: string | undefined;
  /** TOTP time step of the last one-time code accepted from this user (a code is accepted once). */
  lastOtpStep: number | undefined;
  passwordHash: Buffer | undefined;
  salt: Buffer;
}

export interface SimUserSeed {
  username: string;
  password: string;
  participant: string;
  accounts: string[];
  mfaSecret?: string | undefined;
  registered: boolean;
}

export function firmOf(name: string): string {
  const match = /^firms\/([^/]+)\//.exec(name);
  return match?.[1] ?? '';
}

export class UserStore {
  private readonly users = new Map<string, SimUser>();

  static async create(seeds: readonly SimUserSeed[]): Promise<UserStore> {
    const store = new UserStore();
    for (const seed of seeds) {
      const salt = randomBytes(16);
      store.users.set(seed.username, {
        username: seed.username,
        participant: seed.participant,
        firm: firmOf(seed.participant),
        accounts: [...seed.accounts],
        registered: seed.registered,
        mfaSecret: seed.mfaSecret,
        pendingMfaSecret: undefined,
        lastOtpStep: undefined,
        passwordHash: seed.registered ? await scrypt(seed.password, salt, 32) : undefined,
        salt,
      });
    }
    return store;
  }

  get(username: string): SimUser | undefined {
    return this.users.get(username);
  }

  all(): SimUser[] {
    return [...this.users.values()];
  }

  /** The user owning an account, if any. */
  ownerOf(account: string): SimUser | undefined {
    for (const user of this.users.values()) if (user.accounts.includes(account)) return user;
    return undefined;
  }

  async setPassword(user: SimUser, password: string): Promise<void> {
    user.salt = randomBytes(16);
    user.passwordHash = await scrypt(password, user.salt, 32);
  }

  /** Checks a password in constant time; false for unknown or unregistered users. */
  async verifyPassword(username: string, password: string): Promise<SimUser | undefined> {
    const user = this.users.get(username);
    const salt = user?.salt ?? randomBytes(16);
    const hash = await scrypt(password, salt, 32);
    if (user?.passwordHash === undefined) return undefined;
    return timingSafeEqual(hash, user.passwordHash) ? user : undefined;
  }
}
