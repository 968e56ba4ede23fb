/**
 * Unique, traceable identifiers for a run: intent ids, client order ids and cross ids. A client order id
 * reads `<prefix>-<run>-<seq>` (e.g. `tb-k3f9q2-000042`), so every order on the exchange can be traced to
 * the run and the decision that sent it, and ids never repeat across restarts: the run part is random and,
 * with an order journal, differs from every run in it, and the sequence continues from the highest one the
 * journal holds (`start`).
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
  let intents = start.intents ?? 0;
  let orders = start.orders ?? 0;
  let crosses = start.crosses ?? 0;
  const pad = (n: number) => String(n).padStart(6, '0');
  return {
    intentId: () => `i-${runId}-${pad(++intents)}`,
    clordId: () => `${prefix}-${runId}-${pad(++orders)}`,
    crossId: () => `x-${runId}-${pad(++crosses)}`,
  };
}
