/**
 * Family A accounts and users: `GET /v1/accounts/whoami` and `GET /v1/whoami` -> WhoAmI (the acting
 * participant, its firm, accounts and the token's scopes), `GET /v1/users` (`?pageSize=&pageToken=`) ->
 * `{users, nextPageToken}` (the firm's users), `POST /v1/users` `{username, externalId?, email?,
 * firstName?, lastName?}` -> User (201 is not used: 200 with the created user; a taken username or
 * externalId is 409 ALREADY_EXISTS). A user's `kycStatus` comes from the KYC simulation.
 */
import { z } from 'zod';
import { familyA } from '../../../domain/wire/families.ts';
import type { User } from '../../../domain/types/account.ts';
import type { ExchangeCore } from '../../exchange/exchange-core.ts';
import { page } from '../../gateway/lookup-routes.ts';
import type { Directory, DirectoryUser } from '../directory.ts';
import { queryInt, queryString, type ApiRoutes } from '../api-routes.ts';
import { parseBody } from '../body.ts';

export interface AccountRouteDeps {
  core: ExchangeCore;
  directory: Directory;
  /** KYC status of a user of `firm` by external id; undefined when KYC never started. */
  kycStatusOf(firm: string, externalId: string): string | undefined;
  maxPageSize: () => number;
}

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .max(max, `${field} is longer than ${max} characters`)
    .default('');

const createUserRequest = z.object({
  username: z.string({ error: 'username is required' }).min(1, 'username is required').max(64, 'username is longer than 64 characters'),
  externalId: text('externalId', 128),
  email: text('email', 254),
  firstName: text('firstName', 100),
  lastName: text('lastName', 100),
});

export function registerAccountRoutes(routes: ApiRoutes, deps: AccountRouteDeps): void {
  const { core, directory } = deps;
  const toUser = (user: DirectoryUser): User => ({
    id: user.id,
    externalId: user.externalId,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    accounts: [...user.accounts],
    kycStatus: user.source === 'config' ? 'CLOSED' : (deps.kycStatusOf(user.firm, user.externalId) ?? 'NOT_STARTED'),
    createTime: user.createTime,
  });

  for (const endpoint of ['GET /v1/accounts/whoami', 'GET /v1/whoami'] as const) {
    routes.add(endpoint, 'optional', (_context, caller) => {
      const [, firmId = '', , userId = ''] = caller.participant.split('/');
      const user = directory.user(caller.participant);
      const accounts = user?.accounts ?? [];
      return {
        body: familyA.whoAmI.encode({
          participantId: caller.participant,
          firmId,
          userId,
          username: user?.username ?? '',
          accounts: [...accounts],
          scopes: [...caller.scopes],
        }),
      };
    });
  }

  routes.add('GET /v1/users', 'ignored', (context, caller) => {
    const users = directory.usersOf(caller.firm).map(toUser);
    const { items, next } = page(
      users,
      queryInt(context.query, 'pageSize', 0),
      queryString(context.query, 'pageToken'),
      deps.maxPageSize(),
    );
    return { body: familyA.listUsersResponse.encode({ users: items, nextPageToken: next }) };
  });

  routes.add('POST /v1/users', 'ignored', async (context, caller) => {
    const request = await parseBody(context, createUserRequest);
    const created = directory.create(caller.firm, request, core.clock.now());
    return { body: familyA.user.encode(toUser(created)) };
  });
}
