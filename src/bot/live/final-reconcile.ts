/**
 * The run summary's reconciliation: once the pipeline stopped (orders cancelled, streams ended), the exchange's
 * positions and balances of the bot's accounts are read once more and booked into the portfolio (the exchange
 * wins, as in every reconciliation), so fills the streams never delivered (made while a stream reconnected, or
 * while the run was stopping) are in the summary's positions and PnL. When the exchange cannot be read within
 * the deadline the summary keeps the local view and says so: `reconciled: false` with the reason.
 */
import type { Logger } from 'pino';
import { describeError } from '../../errors.ts';
import type { PortfolioPort } from '../../engine/portfolio-port.ts';
import type { Venue } from '../../engine/venue.ts';

/** How long the final read of the exchange may take before the summary goes out unreconciled. */
export const FINAL_RECONCILE_TIMEOUT_MS = 10_000;

export type SummaryReconciliation =
  { readonly reconciled: true; readonly differences: readonly string[] } | { readonly reconciled: false; readonly reason: string };

export interface SummaryReconcileOptions {
  readonly venue: Pick<Venue, 'snapshot'>;
  readonly portfolio: Pick<PortfolioPort, 'reconcile'>;
  readonly accounts: readonly string[];
  readonly log: Logger;
  readonly timeoutMs?: number;
}

export async function reconcileSummary(options: SummaryReconcileOptions): Promise<SummaryReconciliation> {
  const { venue, portfolio, accounts, log } = options;
  const timeoutMs = options.timeoutMs ?? FINAL_RECONCILE_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the exchange did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const snapshot = await Promise.race([venue.snapshot(accounts), deadline]);
    const differences = portfolio.reconcile(snapshot.positions, snapshot.balances);
    for (const difference of differences) {
      log.warn({ difference }, 'run summary: the exchange differs from the local view (the exchange wins)');
    }
    return { reconciled: true, differences };
  } catch (error) {
    const reason = `the exchange's positions could not be read: ${describeError(error)}`;
    log.warn({ err: error }, `run summary: not reconciled with the exchange (${reason}); it shows the local view`);
    return { reconciled: false, reason };
  } finally {
    clearTimeout(timer);
  }
}
