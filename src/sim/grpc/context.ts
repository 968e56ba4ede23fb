/**
 * What the gRPC service handlers share: the exchange core, its scale lookup, the replay journal and the
 * limits in effect; plus the small helpers every handler needs (the accounts a request may name).
 */
import type { InstrumentScales } from '../../domain/scales.ts';
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import { checkAccount, type Caller } from '../exchange/commands.ts';
import type { Journal } from './journal.ts';

export interface ServiceContext {
  readonly core: ExchangeCore;
  readonly scales: (symbol: string) => InstrumentScales | undefined;
  readonly journal: Journal;
  readonly heartbeatMs: number;
  readonly maxSymbolsPerStream: number;
  readonly maxPageSize: number;
}

/** The accounts a request names, each checked against the caller's (PERMISSION_DENIED); none means all. */
export function accountsFor(caller: Caller, requested: readonly string[]): string[] {
  for (const account of requested) checkAccount(caller, account);
  return requested.length > 0 ? [...requested] : [...caller.accounts];
}
