/**
 * Who exists in the simulated exchange, as family A sees it: participants (`firms/<f>/users/<u>`) grouped
 * by firm, with their accounts. Seeded from `sim.users[]`, extended by `POST /v1/users` and by KYC
 * approvals (which open an account). A family A client acts for any participant of its firm; the
 * accounts a call may touch come from here.
 */
import { SimHttpError } from '../http/errors.ts';
import { firmOf } from '../gateway/user-store.ts';
import type { SimUserConfig } from '../config.ts';

export interface DirectoryUser {
  /** `firms/<firm>/users/<user>` */
  id: string;
  firm: string;
  username: string;
  externalId: string;
  email: string;
  firstName: string;
  lastName: string;
  accounts: string[];
  createTime: number | undefined;
  /** Where it came from: config users are already onboarded (KYC done). */
  source: 'config' | 'api' | 'kyc';
}

export interface NewUser {
  username: string;
  externalId: string;
  email: string;
  firstName: string;
  lastName: string;
}

const ID_UNSAFE = /[^A-Za-z0-9_.@-]+/g;

/** A participant/account id segment made from free text (`Jane Doe!` -> `Jane-Doe`). */
export function idSegment(text: string): string {
  const cleaned = text
    .replace(ID_UNSAFE, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return cleaned === '' ? 'user' : cleaned;
}

export class Directory {
  private readonly users = new Map<string, DirectoryUser>();

  constructor(seeds: readonly SimUserConfig[]) {
    for (const seed of seeds) {
      this.users.set(seed.participant, {
        id: seed.participant,
        firm: firmOf(seed.participant),
        username: seed.username,
        externalId: '',
        email: '',
        firstName: '',
        lastName: '',
        accounts: [...seed.accounts],
        createTime: undefined,
        source: 'config',
      });
    }
  }

  user(participant: string): DirectoryUser | undefined {
    return this.users.get(participant);
  }

  usersOf(firm: string): DirectoryUser[] {
    return [...this.users.values()].filter((u) => u.firm === firm);
  }

  byExternalId(firm: string, externalId: string): DirectoryUser | undefined {
    if (externalId === '') return undefined;
    return this.usersOf(firm).find((u) => u.externalId === externalId);
  }

  accountsOfFirm(firm: string): string[] {
    return this.usersOf(firm).flatMap((u) => u.accounts);
  }

  /** Creates a user of `firm` (POST /v1/users); usernames and external ids are unique per firm. */
  create(firm: string, user: NewUser, now: number, source: 'api' | 'kyc' = 'api'): DirectoryUser {
    if (this.usersOf(firm).some((u) => u.username === user.username))
      throw new SimHttpError('ALREADY_EXISTS', `username ${user.username} already exists in firm ${firm}`);
    if (this.byExternalId(firm, user.externalId) !== undefined)
      throw new SimHttpError('ALREADY_EXISTS', `externalId ${user.externalId} already belongs to a user of firm ${firm}`);
    const id = this.freeId(`firms/${firm}/users/${idSegment(user.username)}`);
    const created: DirectoryUser = { id, firm, ...user, accounts: [], createTime: now, source };
    this.users.set(id, created);
    return created;
  }

  /** Opens a new account for a user (after KYC approval) and returns its name. */
  openAccount(user: DirectoryUser): string {
    const taken = new Set(this.accountsOfFirm(user.firm));
    const base = `firms/${user.firm}/accounts/${idSegment(user.id.split('/')[3] ?? 'user')}`;
    let n = 1;
    while (taken.has(`${base}-${n}`)) n++;
    const account = `${base}-${n}`;
    user.accounts.push(account);
    return account;
  }

  private freeId(base: string): string {
    if (!this.users.has(base)) return base;
    let n = 2;
    while (this.users.has(`${base}-${n}`)) n++;
    return `${base}-${n}`;
  }
}

/** What KYC approval does to the directory: the user (found by externalId, or created) gets an account. */
export function directoryAccountOpener(directory: Directory, materialize: (account: string) => void) {
  return {
    open(
      firm: string,
      externalId: string,
      person: { email: string; firstName: string; lastName: string },
      now: number,
    ): { participantId: string; account: string } {
      let user = directory.byExternalId(firm, externalId);
      if (user === undefined) {
        let username = externalId;
        for (let n = 2; directory.usersOf(firm).some((u) => u.username === username); n++) username = `${externalId}-${n}`;
        user = directory.create(firm, { username, externalId, ...person }, now, 'kyc');
      }
      const account = directory.openAccount(user);
      materialize(account);
      return { participantId: user.id, account };
    },
  };
}
