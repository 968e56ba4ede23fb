// bot.streams: grpc — the live connection to the embedded sim serves books and the order stream over gRPC,
// with a family A token from an ephemeral client the sim onboarded for the bot.
import { firstValueFrom, filter } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { connect } from '../../../src/engine/live/connection.ts';
import { FamilyAVenue } from '../../../src/engine/venues/familya-venue.ts';
import { Decimal } from '../../../src/domain/decimal.ts';

describe('live stream transport', () => {
  it('delivers books and the order snapshot over gRPC when bot.streams is grpc', async () => {
    const base = loadConfig('config/sim.yaml');
    const config = { ...base, bot: { ...base.bot, streams: 'grpc' as const }, sim: base.sim === undefined ? undefined : { ...base.sim, activity: { ...base.sim.activity, enabled: true } } };
    const connection = await connect(config, ['RAIN-NYC-2026-12-01'], silentLogger());
    try {
      expect(connection.streams).toBeDefined();
      const book = await firstValueFrom(connection.streams!.marketData(['RAIN-NYC-2026-12-01']).pipe(filter((e) => e.type === 'book')));
      expect(book.type === 'book' && book.symbol).toBe('RAIN-NYC-2026-12-01');
      const snapshot = await firstValueFrom(connection.streams!.orderUpdates(connection.accounts).pipe(filter((e) => e.type === 'snapshot')));
      expect(snapshot.type).toBe('snapshot');
    } finally {
      await connection.close();
    }
  });

  it('uses the gateway NDJSON streams by default', async () => {
    const connection = await connect(loadConfig('config/sim.yaml'), ['RAIN-NYC-2026-12-01'], silentLogger());
    try {
      expect(connection.streams).toBeUndefined();
    } finally {
      await connection.close();
    }
  });
});

describe('family A venue', () => {
  it('inserts, replaces and cancels through /v1 and reconciles from /v1 lookups', async () => {
    const base = loadConfig('config/sim.yaml');
    const config = { ...base, bot: { ...base.bot, venue: 'familyA' as const } };
    const connection = await connect(config, ['RAIN-NYC-2026-12-01'], silentLogger());
    try {
      const streams = connection.streams!;
      const venue = new FamilyAVenue({ client: streams.familyA, marketData: (s) => streams.marketData(s), orderUpdates: (a) => streams.orderUpdates(a) });
      const account = 'firms/demo/accounts/alice-main';
      const [orderId] = await venue.insertOrders([
        { clordId: 'fa-venue-1', account, symbol: 'RAIN-NYC-2026-12-01', side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT', timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL', qty: new Decimal(2), price: new Decimal('0.05'), postOnly: true, selfMatchPreventionInstruction: undefined },
      ]);
      expect(connection.sim!.core.openOrders({ account }).map((o) => o.order.orderId)).toContain(orderId);
      await venue.replaceOrders([{ orderId: orderId!, symbol: 'RAIN-NYC-2026-12-01', clordId: 'fa-venue-2', qty: undefined, price: new Decimal('0.06') }]);
      const snapshot = await venue.snapshot([account]);
      expect(snapshot.openOrders.find((o) => o.id === orderId)?.price.toString()).toBe('0.06');
      expect(snapshot.balances.length).toBeGreaterThan(0);
      await venue.cancelOrders([{ orderId: orderId!, clordId: 'fa-venue-2', symbol: 'RAIN-NYC-2026-12-01' }]);
      expect(connection.sim!.core.openOrders({ account })).toHaveLength(0);
      await expect(venue.cross()).rejects.toMatchObject({ code: 'VENUE_CROSS_UNSUPPORTED' });
    } finally {
      await connection.close();
    }
  });
});
