/**
 * Read-only aggregates over the tracked orders (pure functions over records).
 */
import type { OrderRecord } from './record.ts';
import { isOpen } from './states.ts';
import { TRACKED_STATES, type OrderCounts, type TrackedState } from './types.ts';

export function countStates(records: readonly OrderRecord[]): OrderCounts {
  const byState = Object.fromEntries(TRACKED_STATES.map((state) => [state, 0])) as Record<TrackedState, number>;
  let open = 0;
  for (const record of records) {
    const state = record.state();
    byState[state] += 1;
    if (isOpen(state)) open += 1;
  }
  return { total: records.length, open, byState };
}
