/**
 * Stream lines: heartbeat / snapshot / update / error for the order, market data, instrument state and
 * position streams, with session id and processed time.
 */
import { describe, expect, test } from 'vitest';
import { familyA, gateway } from '../../src/domain/index.ts';
import { SCALES, d, installDecimalEquality, order } from './fixtures.ts';

installDecimalEquality();

describe('order stream', () => {
  test('a heartbeat carries the session id and processed time', () => {
    const line = '{"result":{"heartbeat":{},"session_id":"s1","processed_sent_time":"2024-05-01T12:00:00Z"}}';
    expect(gateway.orderStream.decodeText(line, SCALES)).toEqual({
      kind: 'heartbeat',
      sessionId: 's1',
      processedSentTime: Date.UTC(2024, 4, 1, 12),
    });
  });

  test('a snapshot lists the working orders', () => {
    const wire = gateway.orderStream.encode({ kind: 'snapshot', orders: [order], sessionId: 's1', processedSentTime: undefined }, SCALES);
    expect(Object.keys(wire.result as object)).toEqual(['snapshot', 'session_id']);
    const message = gateway.orderStream.decode(wire, SCALES);
    expect(message.kind === 'snapshot' && message.orders[0]?.price).toEqual(d('0.5525'));
  });

  test('an update carries executions and a cancel reject', () => {
    const message = gateway.orderStream.decode(
      {
        result: {
          update: {
            executions: [{ id: 'e1', order: { symbol: 'EVT-A', price: '55' }, type: 'EXECUTION_TYPE_FILL', last_px: '55' }],
            cancel_reject: { clord_id: 'c1', reject_reason: 'CXL_REJ_REASON_UNKNOWN_ORDER' },
          },
          session_id: 's1',
        },
      },
      SCALES,
    );
    expect(message.kind).toBe('update');
    if (message.kind !== 'update') return;
    expect(message.executions[0]?.lastPx).toEqual(d('0.55'));
    expect(message.cancelReject?.rejectReason).toBe('CXL_REJ_REASON_UNKNOWN_ORDER');
    expect(message.sessionId).toBe('s1');
  });

  test('an error line wins and keeps its details', () => {
    const line = '{"error":{"code":14,"message":"UNAVAILABLE","details":[{"@type":"x"}]}}';
    expect(gateway.orderStream.decodeText(line)).toEqual({
      kind: 'error',
      error: { code: 14, message: 'UNAVAILABLE', details: [{ '@type': 'x' }] },
    });
  });
});

describe('market data stream', () => {
  test('an update decodes the full levels with the symbol scales', () => {
    const message = gateway.marketDataStream.decode(
      {
        result: {
          update: {
            symbol: 'EVT-B',
            bids: [{ px: '5500', qty: '150' }],
            offers: [{ px: '5600', qty: 25 }],
            state: 'INSTRUMENT_STATE_OPEN',
            transact_time: '2024-05-01T12:00:00Z',
          },
        },
      },
      SCALES,
    );
    expect(message).toEqual({
      kind: 'update',
      symbol: 'EVT-B',
      bids: [{ px: d('0.55'), qty: d('1.5') }],
      offers: [{ px: d('0.56'), qty: d('0.25') }],
      state: 'INSTRUMENT_STATE_OPEN',
      stats: undefined,
      transactTime: Date.UTC(2024, 4, 1, 12),
    });
  });

  test('a heartbeat has no other fields', () => {
    expect(familyA.marketDataStream.decode({ result: { heartbeat: {} } })).toEqual({ kind: 'heartbeat' });
    expect(familyA.marketDataStream.encode({ kind: 'heartbeat' })).toEqual({ result: { heartbeat: {} } });
  });
});

describe('instrument state and position streams', () => {
  test('an instrument state change decodes its state', () => {
    expect(gateway.instrumentStateStream.decode({ result: { update: { symbol: 'EVT-A', state: 'INSTRUMENT_STATE_HALTED' } } })).toEqual({
      kind: 'update',
      symbol: 'EVT-A',
      state: 'INSTRUMENT_STATE_HALTED',
      text: '',
      transactTime: undefined,
    });
  });

  test('a position update decodes quantities with the symbol scales', () => {
    const message = gateway.positionStream.decode(
      { result: { update: { positions: [{ symbol: 'EVT-B', net_position: '-250', cost_basis: '1.5' }] }, session_id: 's' } },
      SCALES,
    );
    expect(message.kind === 'update' && message.positions[0]?.netPosition).toEqual(d('-2.5'));
  });
});
