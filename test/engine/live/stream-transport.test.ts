// bot.streams: grpc — the live connection to the embedded sim serves books and the order stream over gRPC,
// with a family A token from an ephemeral client the sim onboarded for the bot.
import { firstValueFrom, filter } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { connect } from '../../../src/engine/live/connection.ts';

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
