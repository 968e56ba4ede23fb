/**
 * Family A positions and balances: `GET /v1/positions` (`?account=&symbol=`; every visible account when
 * none is named) -> `{positions, availablePosition}`, `POST /v1/positions/balance` `{name, currency}` ->
 * Balance, `POST /v1/positions/balances` `{accounts?, currency?}` -> `{balances}`. Built with the gateway's
 * position and balance views over the same ledger.
 */
import { z } from 'zod';
import { familyA } from '../../../domain/wire/families.ts';
import { invalidArgument } from '../../http/errors.ts';
import type { ExchangeCore } from '../../exchange/exchange-core.ts';
import { domainBalance, domainPosition } from '../../gateway/lookup-routes.ts';
import { scaleLookup } from '../../gateway/wire.ts';
import { accountsFor } from '../guard.ts';
import { decodeA, queryList, queryString, type ApiRoutes } from '../api-routes.ts';
import { parseBody } from '../body.ts';

const balancesRequest = z.object({
  accounts: z.array(z.string({ error: 'accounts must be strings' }), { error: 'accounts must be a list of account names' }).default([]),
  currency: z.string({ error: 'currency must be a string' }).default(''),
});

export function registerPositionRoutes(routes: ApiRoutes, core: ExchangeCore): void {
  const scales = scaleLookup(core);
  const checkCurrency = (currency: string) => {
    if (currency !== '' && currency !== core.currency)
      throw invalidArgument(`unknown currency ${currency}; accounts hold ${core.currency}`);
  };

  routes.add('GET /v1/positions', 'optional', (context, caller) => {
    const accounts = accountsFor(caller, queryList(context.query, 'account', 'accounts'));
    const symbol = queryString(context.query, 'symbol');
    const positions = accounts.flatMap((account) =>
      core.ledger
        .positionsOf(account)
        .filter((p) => symbol === '' || p.symbol === symbol)
        .map((p) => domainPosition(core, p)),
    );
    const availablePosition = positions
      .filter((p) => p.netPosition.gt(0))
      .map((p) => ({ account: p.account, symbol: p.symbol, qty: p.netPosition.minus(p.openSellQty).clampedTo(0, Infinity) }));
    return { body: familyA.positionsResponse.encode({ positions, availablePosition }, scales) };
  });

  routes.add('POST /v1/positions/balance', 'optional', async (context, caller) => {
    const request = await decodeA(context, familyA.balanceRequest, core);
    if (request.name === '') throw invalidArgument('name is required (firms/<firm>/accounts/<account>)');
    const [account = ''] = accountsFor(caller, [request.name]);
    checkCurrency(request.currency);
    return { body: familyA.balance.encode(domainBalance(core, account)) };
  });

  routes.add('POST /v1/positions/balances', 'optional', async (context, caller) => {
    const request = await parseBody(context, balancesRequest);
    checkCurrency(request.currency);
    const balances = accountsFor(caller, request.accounts).map((account) => domainBalance(core, account));
    return { body: familyA.balancesResponse.encode({ balances }) };
  });
}
