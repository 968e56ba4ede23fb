/**
 * Unique, traceable identifiers for a run: intent ids, client order ids and cross ids. A client order id
 * reads `<prefix>-<run>-<seq>` (e.g. `tb-k3f9q2-000042`), so every order on the exchange can be traced to
 * the run and the decision that sent it, and ids never repeat across restarts: the run part is random and,
 * with an order journal, differs from every run in it, and the sequence continues from the highest one the
 * journal holds (`start`). With several strategies in the run, each strategy's prefix is its id (sharedIdFactory).
 */
import { randomBytes } from 'node:crypto';
import type { IdFactory } from '../strategy/runtime.ts';

/** Sequence numbers already used: the factory's first ids are these plus one. */
export interface IdStart {
  readonly intents?: number;
  readonly orders?: number;
  readonly crosses?: number;
}

/** A random run id, different from every one in `used`. */
export function newRunId(used: ReadonlySet<string> = new Set()): string {
  for (;;) {
    const runId = randomBytes(4).toString('hex');
    if (!used.has(runId)) return runId;
  }
}

export function idFactory(runId: string, prefix = 'tb', start: IdStart = {}): IdFactory {
  return sharedIdFactory(runId, start)(prefix);
}

/**
 * Id factories for several strategies of one run (#25): each gets its own client order id prefix (its id, so
 * `mm-rain-k3f9q2-000042`), the sequences are shared so every id stays unique in the run and the journal's
 * counters continue them all.
 */
export function sharedIdFactory(runId: string, start: IdStart = {}): (prefix: string) => IdFactory {
  let intents = start.intents ?? 0;
  let orders = start.orders ?? 0;
  let crosses = start.crosses ?? 0;
  const pad = (n: number) => String(n).padStart(6, '0');
  return (prefix) => ({
    intentId: () => `i-${runId}-${pad(++intents)}`,
    clordId: () => `${prefix}-${runId}-${pad(++orders)}`,
    crossId: () => `x-${runId}-${pad(++crosses)}`,
  });
}

/**
 * The prefix of a client order id this engine made (`<prefix>-<run>-<seq>`: what is left without the last two
 * parts, which hold no `-`); undefined for an id of another form (an order adopted from the exchange).
 */
export function clordPrefixOf(clordId: string): string | undefined {
  const seq = clordId.lastIndexOf('-');
  const run = seq <= 0 ? -1 : clordId.lastIndexOf('-', seq - 1);
  return run <= 0 ? undefined : clordId.slice(0, run);
}
