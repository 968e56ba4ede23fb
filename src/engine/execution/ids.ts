/**
 * Unique, traceable identifiers for a run: intent ids, client order ids and cross ids. A client order id
 * reads `<prefix>-<run>-<seq>` (e.g. `tb-k3f9q2-000042`), so every order on the exchange can be traced to
 * the run and the decision that sent it, and ids never repeat across restarts (the run part is random).
 */
import { randomBytes } from 'node:crypto';
import type { IdFactory } from '../strategy/runtime.ts';

export function newRunId(): string {
  return randomBytes(4).toString('hex');
}

export function idFactory(runId: string, prefix = 'tb'): IdFactory {
  let intents = 0;
  let orders = 0;
  let crosses = 0;
  const pad = (n: number) => String(n).padStart(6, '0');
  return {
    intentId: () => `i-${runId}-${pad(++intents)}`,
    clordId: () => `${prefix}-${runId}-${pad(++orders)}`,
    crossId: () => `x-${runId}-${pad(++crosses)}`,
  };
}
