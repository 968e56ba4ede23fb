/**
 * Wraps a strategy definition so a test sees its decisions: every intent it emits through its context
 * (place, cancel, replace, cancelAll, cross) with the engine time, and every fill it is told about. Client
 * order ids differ between runs (they carry the run id), so an intent names an order by the order in which
 * this strategy placed it (`#1`, `#2`, ...): two runs that decide the same give equal lists.
 */
import type { Decimal } from '../../../src/domain/decimal.ts';
import type { AnyStrategy, StrategyContext } from '../../../src/engine/strategy/define-strategy.ts';

export interface CapturedIntent {
  /** Engine time of the decision (epoch ms). */
  readonly time: number;
  /** The decision, without ids: e.g. `place BUY 2 SYN@0.41 DAY post quote`, `cancel #3`, `cancelAll SYN`. */
  readonly what: string;
}

export interface CapturedFill {
  /** The order, as `#n` (see above). */
  readonly order: string;
  readonly time: number;
  readonly symbol: string;
  readonly side: string;
  readonly qty: string;
  readonly price: string;
}

export interface Capture {
  readonly intents: CapturedIntent[];
  readonly fills: CapturedFill[];
}

const text = (value: Decimal | string | number | undefined): string => (value === undefined ? '-' : value.toString());

export function capturing(definition: AnyStrategy): { strategy: AnyStrategy; capture: Capture } {
  const capture: Capture = { intents: [], fills: [] };
  const ordinals = new Map<string, number>();
  const name = (clordId: string) => `#${ordinals.get(clordId) ?? `?${clordId}`}`;
  const contexts = new Map<StrategyContext<unknown>, StrategyContext<unknown>>();
  const wrap = (ctx: StrategyContext<unknown>): StrategyContext<unknown> => {
    let wrapped = contexts.get(ctx);
    if (wrapped !== undefined) return wrapped;
    const record = (what: string) => void capture.intents.push({ time: ctx.now(), what });
    wrapped = Object.create(ctx, {
      place: {
        value: (o: Parameters<StrategyContext<unknown>['place']>[0]) => {
          const clordId = ctx.place(o);
          ordinals.set(clordId, ordinals.size + 1);
          record(
            `place ${o.side} ${text(o.qty)} ${o.symbol}@${text(o.price)} ${o.timeInForce ?? 'DAY'}` +
              `${o.postOnly === true ? ' post' : ''} ${o.label ?? ''} -> ${name(clordId)}`,
          );
          return clordId;
        },
      },
      cancel: {
        value: (clordId: string) => {
          record(`cancel ${name(clordId)}`);
          ctx.cancel(clordId);
        },
      },
      replace: {
        value: (clordId: string, change: Parameters<StrategyContext<unknown>['replace']>[1]) => {
          const next = ctx.replace(clordId, change);
          ordinals.set(next, ordinals.get(clordId) ?? 0);
          record(`replace ${name(clordId)} price ${text(change.price)} qty ${text(change.qty)}`);
          return next;
        },
      },
      cancelAll: {
        value: (symbol?: string) => {
          record(`cancelAll ${symbol ?? '*'}`);
          ctx.cancelAll(symbol);
        },
      },
      cross: {
        value: (o: Parameters<StrategyContext<unknown>['cross']>[0]) => {
          record(`cross ${o.symbol} ${text(o.qty)}@${text(o.price)} ${o.buyAccount} ${o.sellAccount}`);
          return ctx.cross(o);
        },
      },
    }) as StrategyContext<unknown>;
    contexts.set(ctx, wrapped);
    return wrapped;
  };
  const d = definition;
  const strategy: AnyStrategy = {
    ...d,
    ...(d.onStart === undefined ? {} : { onStart: (ctx) => d.onStart?.(wrap(ctx)) }),
    ...(d.onBook === undefined ? {} : { onBook: (ctx, book) => d.onBook?.(wrap(ctx), book) }),
    ...(d.onTrade === undefined ? {} : { onTrade: (ctx, trade) => d.onTrade?.(wrap(ctx), trade) }),
    ...(d.onTimer === undefined ? {} : { onTimer: (ctx, timer) => d.onTimer?.(wrap(ctx), timer) }),
    ...(d.onStop === undefined ? {} : { onStop: (ctx) => d.onStop?.(wrap(ctx)) }),
    onOrderUpdate: (ctx, update) => {
      if (update.type === 'fill') {
        const f = update.fill;
        capture.fills.push({
          order: name(f.clordId),
          time: f.time,
          symbol: f.symbol,
          side: f.side,
          qty: f.qty.toString(),
          price: f.price.toString(),
        });
      }
      d.onOrderUpdate?.(wrap(ctx), update);
    },
  };
  return { strategy, capture };
}
