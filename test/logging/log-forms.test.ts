// What a strategy's log calls print: objects by their JSON form (an order view as its fields, a Decimal as its
// digits, never "[object Object]"; one Decimal met twice is not taken for a cycle), with the documented form
// log.warn({ fields }, 'msg'), and with log.warn('msg', { fields }) too (pino alone drops those fields).
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/decimal.ts';
import { VirtualClock } from '../../src/engine/clock.ts';
import { OrderTracker } from '../../src/engine/orders/index.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { redactSecrets } from '../../src/logging/redact.ts';

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines };
}

function orderView() {
  const tracker = new OrderTracker({ clock: new VirtualClock(Date.UTC(2026, 0, 15)) });
  return tracker.submitted(
    {
      clordId: 'tb-1',
      account: 'firms/f/accounts/main',
      symbol: 'EVT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GOOD_TILL_CANCEL',
      qty: new Decimal(5),
      price: new Decimal('0.41'),
      postOnly: false,
      selfMatchPreventionInstruction: undefined,
    },
    { intentId: 'i-1', label: 'quote' },
  );
}

describe('strategy log calls', () => {
  it('logs an order view with its fields and Decimals as digits, in both forms', () => {
    const out = capture();
    const log = createLogger({ pretty: false, destination: out.stream }).child({ strategy: 'demo' });
    const order = orderView();
    log.warn({ order }, 'fields first');
    // pino's types accept this form only with a placeholder in the message; a JavaScript plugin (or a cast) can
    // still write it, and its fields are logged rather than dropped
    (log.warn as (...args: unknown[]) => void).call(log, 'message first', { order, edge: new Decimal('0.015') });
    log.warn('a %s placeholder stays pino interpolation', 'printf');
    const [first, second, third] = out.lines();
    const expected = {
      clordId: 'tb-1',
      account: 'firms/f/accounts/main',
      symbol: 'EVT',
      side: 'BUY',
      price: '0.41',
      qty: '5',
      filledQty: '0',
      leavesQty: '5',
      status: 'PENDING_NEW',
      intentId: 'i-1',
      label: 'quote',
      adopted: false,
      avgPx: '0',
      clordIds: ['tb-1'],
    };
    expect(first).toMatchObject({ level: 'warn', strategy: 'demo', msg: 'fields first', order: expected });
    expect(second).toMatchObject({ msg: 'message first', order: expected, edge: '0.015' });
    expect(third).toMatchObject({ msg: 'a printf placeholder stays pino interpolation' });
    expect(JSON.stringify(out.lines())).not.toContain('[object Object]');
  });

  it('redacts by the JSON form: secrets inside an object with toJSON are still masked; plain class instances show their fields', () => {
    class Holder {
      constructor(
        readonly name: string,
        readonly password: string,
      ) {}
    }
    class WithJson {
      toJSON() {
        return { token: 'abc', when: new Date(0) };
      }
    }
    expect(redactSecrets({ holder: new Holder('x', 'hunter2'), json: new WithJson(), d: new Decimal('1.50') })).toEqual({
      holder: { name: 'x', password: '[REDACTED]' },
      json: { token: '[REDACTED]', when: '1970-01-01T00:00:00.000Z' },
      d: '1.5',
    });
  });
});
