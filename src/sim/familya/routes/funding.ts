/**
 * Simulated family A funding: `GET /v1/funding/accounts` (`?account=`) -> `{fundingAccounts}` (one
 * simulated bank account per exchange account, with a stable id), and `POST /v1/aeropay/deposits` /
 * `POST /v1/checkout/deposits` `{account, amount, currency?, fundingAccountId?}` -> `{deposit: {id,
 * provider, account, amount, currency, status: "COMPLETED", createTime}, balance}` where the amount is
 * credited to the account's cash at once (no payment network is involved). Amounts are decimal strings
 * above 0 with at most 2 decimals and at most 1,000,000 per deposit.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { familyA } from '../../../domain/wire/families.ts';
import { tryParseDecimal } from '../../../domain/decimal.ts';
import type { FundingAccount } from '../../../domain/types/account.ts';
import { formatTimestamp } from '../../../domain/time.ts';
import { invalidArgument, notFound } from '../../http/errors.ts';
import type { ExchangeCore } from '../../exchange/exchange-core.ts';
import { domainBalance } from '../../gateway/lookup-routes.ts';
import { accountsFor } from '../guard.ts';
import { queryList, type ApiRoutes } from '../api-routes.ts';
import { parseBody } from '../body.ts';

export const MAX_DEPOSIT = '1000000';

const depositRequest = z.object({
  account: z.string({ error: 'account is required' }).min(1, 'account is required'),
  amount: z.union([z.string(), z.number()], { error: 'amount is required: a decimal string such as "250.00"' }),
  currency: z.string({ error: 'currency must be a string' }).default(''),
  fundingAccountId: z.string({ error: 'fundingAccountId must be a string' }).default(''),
});

function fundingAccountOf(account: string, currency: string): FundingAccount {
  const digest = createHash('sha256').update(account).digest('hex');
  const last4 = String(Number.parseInt(digest.slice(0, 8), 16) % 10_000).padStart(4, '0');
  return {
    id: `fa-${digest.slice(0, 12)}`,
    account,
    type: 'BANK',
    displayName: `Simulated bank ••••${last4}`,
    status: 'ACTIVE',
    currency,
    last4,
    createTime: undefined,
  };
}

export function registerFundingRoutes(routes: ApiRoutes, core: ExchangeCore): void {
  let depositSeq = 0;

  routes.add('GET /v1/funding/accounts', 'optional', (context, caller) => {
    const accounts = accountsFor(caller, queryList(context.query, 'account', 'accounts'));
    return { body: familyA.fundingAccountsResponse.encode({ fundingAccounts: accounts.map((a) => fundingAccountOf(a, core.currency)) }) };
  });

  for (const provider of ['aeropay', 'checkout'] as const) {
    routes.add(`POST /v1/${provider}/deposits`, 'optional', async (context, caller) => {
      const request = await parseBody(context, depositRequest);
      const [account = ''] = accountsFor(caller, [request.account]);
      const amount = tryParseDecimal(String(request.amount));
      if (amount === undefined || amount.lte(0)) throw invalidArgument('amount must be a decimal above 0, such as "250.00"');
      if (amount.decimalPlaces() > 2) throw invalidArgument('amount may have at most 2 decimals');
      if (amount.gt(MAX_DEPOSIT)) throw invalidArgument(`amount is above the simulated deposit limit of ${MAX_DEPOSIT}`);
      if (request.currency !== '' && request.currency !== core.currency)
        throw invalidArgument(`unknown currency ${request.currency}; accounts hold ${core.currency}`);
      if (request.fundingAccountId !== '' && request.fundingAccountId !== fundingAccountOf(account, core.currency).id) {
        throw notFound(`funding account ${request.fundingAccountId} is not linked to ${account}`);
      }
      const now = core.clock.now();
      core.ledger.credit(account, amount, now);
      depositSeq += 1;
      const deposit = {
        id: `${provider}-dep-${depositSeq}`,
        provider,
        account,
        amount: amount.toFixed(2),
        currency: core.currency,
        status: 'COMPLETED',
        createTime: formatTimestamp(now),
      };
      return { body: { deposit, balance: familyA.balance.encode(domainBalance(core, account)) } };
    });
  }
}
