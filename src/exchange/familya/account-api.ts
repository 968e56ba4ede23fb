/**
 * Family A accounts and funding: positions, balances, who-am-i, users, funding accounts and deposits.
 * Position quantities are priced with the symbol's scales; money is plain decimal strings on the wire.
 * Deposits move money: they are never repeated by the transport (the exchange offers no idempotency key),
 * so after a connectivity failure the caller must check the balance before trying again.
 */
import { familyA } from '../../domain/index.ts';
import type { Balance, FundingAccount, ListUsersResponse, PositionsResponse, User, WhoAmI } from '../../domain/index.ts';
import type { RequestOptions } from './call.ts';
import { decodeBody } from './call.ts';
import { decodeWithScales, pages } from './context.ts';
import type { ApiContext } from './context.ts';
import { invalidRequest } from './errors.ts';
import { familyAExtra } from './extra-resources.ts';
import type { CreateUserRequest, DepositRequest, DepositResult, ListUsersRequest } from './extra-resources.ts';
import { withDefaults } from './inputs.ts';

const opts = (options: RequestOptions | undefined) => (options === undefined ? {} : { options });

export interface PositionsInput {
  /** Accounts to read (`firms/<f>/accounts/<a>`); all the caller may see when empty. */
  readonly accounts?: readonly string[];
  readonly symbol?: string;
}

/** GET /v1/positions `?account=&symbol=`. */
export async function positions(ctx: ApiContext, input: PositionsInput = {}, options?: RequestOptions): Promise<PositionsResponse> {
  const query = { account: input.accounts ?? [], ...(input.symbol === undefined || input.symbol === '' ? {} : { symbol: input.symbol }) };
  const answer = await ctx.caller.call('positions', { query, ...opts(options) });
  return decodeWithScales(ctx, 'positions', familyA.positionsResponse, answer);
}

/** POST /v1/positions/balance `{name, currency}` for one account. */
export async function balance(ctx: ApiContext, account: string, currency = '', options?: RequestOptions): Promise<Balance> {
  if (account === '') throw invalidRequest('balance', 'account is required (firms/<firm>/accounts/<account>)');
  const answer = await ctx.caller.call('balance', { body: familyA.balanceRequest.encode({ name: account, currency }), ...opts(options) });
  return decodeBody('balance', () => familyA.balance.decode(answer));
}

/** POST /v1/positions/balances `{accounts, currency}` (every visible account when `accounts` is empty). */
export async function balances(
  ctx: ApiContext,
  accounts: readonly string[] = [],
  currency = '',
  options?: RequestOptions,
): Promise<readonly Balance[]> {
  const answer = await ctx.caller.call('balances', { body: familyAExtra.balancesRequest.encode({ accounts, currency }), ...opts(options) });
  return decodeBody('balances', () => familyA.balancesResponse.decode(answer)).balances;
}

/** GET /v1/accounts/whoami. */
export async function whoAmI(ctx: ApiContext, options?: RequestOptions): Promise<WhoAmI> {
  const answer = await ctx.caller.call('whoAmI', opts(options));
  return decodeBody('whoAmI', () => familyA.whoAmI.decode(answer));
}

/** GET /v1/users `?pageSize=&pageToken=`: one page. */
export async function listUsers(
  ctx: ApiContext,
  input: Partial<ListUsersRequest> = {},
  options?: RequestOptions,
): Promise<ListUsersResponse> {
  const request = withDefaults<ListUsersRequest>({ pageSize: 0, pageToken: '' }, input);
  const query = familyAExtra.listUsersRequest.encode(request) as Record<string, string>;
  const answer = await ctx.caller.call('listUsers', { query, ...opts(options) });
  return decodeBody('listUsers', () => familyA.listUsersResponse.decode(answer));
}

/** Every user, page after page. */
export async function* allUsers(
  ctx: ApiContext,
  input: Partial<ListUsersRequest> = {},
  options?: RequestOptions,
): AsyncGenerator<User, void, undefined> {
  for await (const page of pages('listUsers', input.pageToken ?? '', (pageToken) => listUsers(ctx, { ...input, pageToken }, options)))
    yield* page.users;
}

/** POST /v1/users -> the created user. */
export async function createUser(
  ctx: ApiContext,
  input: Partial<CreateUserRequest> & Pick<CreateUserRequest, 'username'>,
  options?: RequestOptions,
): Promise<User> {
  if (input.username === '') throw invalidRequest('createUser', 'username is required');
  const request = withDefaults<CreateUserRequest>({ username: '', externalId: '', email: '', firstName: '', lastName: '' }, input);
  const answer = await ctx.caller.call('createUser', { body: familyAExtra.createUserRequest.encode(request), ...opts(options) });
  return decodeBody('createUser', () => familyA.user.decode(answer));
}

/** GET /v1/funding/accounts (`?account=` narrows to one trading account). */
export async function fundingAccounts(ctx: ApiContext, account = '', options?: RequestOptions): Promise<readonly FundingAccount[]> {
  const answer = await ctx.caller.call('fundingAccounts', { ...(account === '' ? {} : { query: { account } }), ...opts(options) });
  return decodeBody('fundingAccounts', () => familyA.fundingAccountsResponse.decode(answer)).fundingAccounts;
}

export type DepositInput = Pick<DepositRequest, 'account' | 'amount'> & Partial<DepositRequest>;

async function deposit(
  ctx: ApiContext,
  name: 'aeropayDeposit' | 'checkoutDeposit',
  input: DepositInput,
  options?: RequestOptions,
): Promise<DepositResult> {
  if (input.account === '') throw invalidRequest(name, 'account is required');
  if (!input.amount.isFinite() || input.amount.lte(0))
    throw invalidRequest(name, `amount must be greater than 0, got ${input.amount.toString()}`);
  const request = withDefaults<DepositRequest>({ account: '', fundingAccountId: '', amount: input.amount, currency: '' }, input);
  const answer = await ctx.caller.call(name, { body: familyAExtra.depositRequest.encode(request), ...opts(options) });
  return decodeBody(name, () => familyAExtra.depositResult.decode(answer));
}

/** POST /v1/aeropay/deposits (bank transfer). */
export function aeropayDeposit(ctx: ApiContext, input: DepositInput, options?: RequestOptions): Promise<DepositResult> {
  return deposit(ctx, 'aeropayDeposit', input, options);
}

/** POST /v1/checkout/deposits (card). */
export function checkoutDeposit(ctx: ApiContext, input: DepositInput, options?: RequestOptions): Promise<DepositResult> {
  return deposit(ctx, 'checkoutDeposit', input, options);
}
