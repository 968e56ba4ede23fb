/**
 * Replaces of an order whose insert is not acknowledged yet, in the pipeline with a scripted venue: they wait
 * for the acknowledgement, and a later one takes over an earlier one keeping the changes it does not make
 * itself (a second replace used to drop the first's change silently), whether the strategy names the order
 * by its first client order id or by the one the first replace returned (EXECUTION_REPLACE_MERGED for the
 * earlier one in the tracker's history).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VirtualClock } from '../../src/engine/clock.ts';
import { defineStrategy } from '../../src/engine/strategy/define-strategy.ts';
import type { OrderUpdateView } from '../../src/engine/strategy/views.ts';
import type { VenueReplaceRequest } from '../../src/engine/venue.ts';
import { FakeVenue, startOnVenue } from './helpers/fake-venue.ts';
import { testInstrument } from './helpers/instrument.ts';

const SYMBOL = 'EVT-A';
const ACCOUNT = 'firms/f/accounts/main';

async function run(byNewId: boolean) {
  const clock = new VirtualClock(Date.UTC(2026, 0, 15, 14));
  const venue = new FakeVenue([testInstrument(SYMBOL)]);
  const updates: OrderUpdateView[] = [];
  const ids: string[] = [];
  const strategy = defineStrategy({
    name: 'replacer',
    params: z.object({}),
    onStart(ctx) {
      const first = ctx.place({ symbol: SYMBOL, side: 'BUY', qty: '5', price: '0.40' });
      const second = ctx.replace(first, { qty: '10' }); // grow the bid
      const third = ctx.replace(byNewId ? second : first, { price: '0.41' }); // then nudge its price
      ids.push(first, second, third);
    },
    onOrderUpdate: (_ctx, update) => void updates.push(update),
  });
  const pipeline = await startOnVenue({ venue, clock, strategy, account: ACCOUNT, symbol: SYMBOL });
  expect(venue.callsOf('replace')).toHaveLength(0);
  venue.callsOf('insert')[0]?.resolve(['O1']);
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  return { venue, pipeline, updates, ids };
}

describe('replaces waiting for an acknowledgement', () => {
  it.each([false, true])(
    'send one replace with both changes once the insert is acknowledged (second names the order by the first replace id: %s)',
    async (byNewId) => {
      const { venue, pipeline, updates, ids } = await run(byNewId);
      const replaces = venue.callsOf<VenueReplaceRequest>('replace');
      expect(replaces).toHaveLength(1);
      expect(replaces[0]?.requests).toHaveLength(1);
      const request = replaces[0]?.requests[0];
      expect({
        orderId: request?.orderId,
        clordId: request?.clordId,
        qty: request?.qty?.toString(),
        price: request?.price?.toString(),
      }).toEqual({ orderId: 'O1', clordId: ids[2], qty: '10', price: '0.41' });
      const order = pipeline.tracker.open()[0];
      expect(order?.pendingReplace?.clordId).toBe(ids[2]);
      const last = updates.at(-1);
      expect(last?.type === 'order' ? last.order.status : undefined).toBe('PENDING_REPLACE');
    },
  );
});
