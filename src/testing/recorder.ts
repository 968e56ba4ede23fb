/**
 * Records a strategy's decisions without changing them: `recordStrategy(definition)` returns a definition that
 * runs the same callbacks (and operator) with a context whose intent calls (place, cancel, replace, cancelAll,
 * cross) are noted before they reach the engine, and whose order updates are noted before the strategy sees
 * them (fills, and refusals tied back to the intent they refuse). Works with any runner and any venue: the
 * scripted market and the sim bot both use it.
 */
import type { AnyStrategy, CrossOptions, PlaceOptions, StrategyContext } from '../engine/strategy/define-strategy.ts';
import type { OrderUpdateView } from '../engine/strategy/views.ts';
import { Decimal, parseDecimal } from '../domain/decimal.ts';
import { intentText, priceText, type RecordedFill, type RecordedIntent, type RecordedRefusal } from './records.ts';

type Ctx = StrategyContext<unknown, unknown>;
type Change = Parameters<Ctx['replace']>[1];
type Unnumbered = RecordedIntent extends infer R ? (R extends RecordedIntent ? Omit<R, 'seq' | 'time' | 'text'> : never) : never;

const toDecimal = (value: Decimal | string | number, what: string): Decimal =>
  value instanceof Decimal ? value : parseDecimal(value, what);

/** A string field of a value of unknown shape (refusal updates gain fields as the engine evolves). */
function field(value: unknown, key: string): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const found: unknown = (value as Record<string, unknown>)[key];
  return typeof found === 'string' ? found : undefined;
}

/** The ids an intent answers to: the id its call returned first, then the order it names. */
function idsOf(intent: RecordedIntent): readonly string[] {
  switch (intent.kind) {
    case 'place':
    case 'cancel':
      return [intent.clordId];
    case 'replace':
      return [intent.newClordId, intent.clordId];
    case 'cross':
      return [intent.crossId];
    case 'cancelAll':
      return [];
  }
}

/** Everything recorded of one run, in the order it happened. */
export class StrategyRecorder {
  /** Every intent the strategy emitted, before risk. */
  readonly intents: RecordedIntent[] = [];
  /** Every intent risk refused. */
  readonly refusals: RecordedRefusal[] = [];
  /** Every fill of the strategy's orders. */
  readonly fills: RecordedFill[] = [];
  private readonly names = new Map<string, string>();
  private readonly symbols = new Map<string, string>();
  private readonly refused = new Set<RecordedIntent>();
  /** Intent calls running now (a refusal delivered inside the call belongs to the innermost). */
  private readonly frames: { refusals: { update: OrderUpdateView; time: number }[] }[] = [];
  private places: (symbol: string | undefined) => number | undefined = () => undefined;

  /** The name (`#n`) of the order with client order id `clordId` (any id it has had). */
  nameOf(clordId: string): string {
    return this.names.get(clordId) ?? `#?${clordId}`;
  }

  /** The current client order id of the order named `name` (`#n`), undefined when there is none. */
  clordIdOf(name: string): string | undefined {
    let found: string | undefined;
    for (const [clordId, n] of this.names) if (n === name) found = clordId;
    return found;
  }

  /** @internal Wraps a context (once per context object). */
  wrap(ctx: Ctx): Ctx {
    const known = this.contexts.get(ctx);
    if (known !== undefined) return known;
    this.places = (symbol) => (symbol === undefined ? undefined : ctx.instrument(symbol)?.tickSize.decimalPlaces());
    const wrapped = Object.create(ctx, {
      place: {
        value: (o: PlaceOptions) =>
          this.call(
            ctx,
            () => ctx.place(o),
            (clordId) => this.placed(o, clordId),
          ),
      },
      cancel: {
        value: (clordId: string) =>
          this.call(
            ctx,
            () => ctx.cancel(clordId),
            () => ({ kind: 'cancel', order: this.nameOf(clordId), clordId, symbol: this.symbols.get(clordId) }),
          ),
      },
      replace: {
        value: (clordId: string, change: Change) =>
          this.call(
            ctx,
            () => ctx.replace(clordId, change),
            (next) => this.replaced(clordId, next, change),
          ),
      },
      cancelAll: {
        value: (symbol?: string) =>
          this.call(
            ctx,
            () => ctx.cancelAll(symbol),
            () => ({ kind: 'cancelAll', symbol }),
          ),
      },
      cross: {
        value: (o: CrossOptions) =>
          this.call(
            ctx,
            () => ctx.cross(o),
            (crossId) => this.crossed(o, crossId),
          ),
      },
    }) as Ctx;
    this.contexts.set(ctx, wrapped);
    return wrapped;
  }

  /** @internal Notes an order update before the strategy sees it. */
  update(ctx: Ctx, update: OrderUpdateView): void {
    if (update.type === 'fill') {
      const f = update.fill;
      const order = this.nameOf(f.clordId);
      const text = `fill ${order} ${f.side} ${f.qty.toFixed()} ${f.symbol}@${priceText(f.price, this.places(f.symbol))}`;
      this.fills.push({ time: f.time, order, clordId: f.clordId, symbol: f.symbol, side: f.side, qty: f.qty, price: f.price, text });
    } else if (update.type === 'order') {
      // a confirmed replace adds ids to the order: they keep its name
      const name = this.names.get(update.order.clordId);
      if (name === undefined) return;
      for (const id of (update.order as { clordIds?: readonly string[] }).clordIds ?? []) if (!this.names.has(id)) this.names.set(id, name);
    } else {
      const frame = this.frames[this.frames.length - 1];
      if (frame !== undefined) frame.refusals.push({ update, time: ctx.now() });
      else this.refusal(update, ctx.now(), this.match(update));
    }
  }

  private readonly contexts = new WeakMap<Ctx, Ctx>();

  private call<T>(ctx: Ctx, run: () => T, describe: (result: T) => Unnumbered): T {
    const frame: (typeof this.frames)[number] = { refusals: [] };
    this.frames.push(frame);
    let result: T;
    try {
      result = run();
    } finally {
      this.frames.pop();
    }
    const described = describe(result);
    const intent = {
      ...described,
      seq: this.intents.length + 1,
      time: ctx.now(),
      text: intentText(described, this.places),
    } as RecordedIntent;
    this.intents.push(intent);
    for (const r of frame.refusals) this.refusal(r.update, r.time, intent);
    return result;
  }

  private placed(o: PlaceOptions, clordId: string): Unnumbered {
    const order = `#${this.intents.filter((i) => i.kind === 'place').length + 1}`;
    this.names.set(clordId, order);
    this.symbols.set(clordId, o.symbol);
    const price = o.price === undefined ? undefined : toDecimal(o.price, 'place.price');
    return {
      kind: 'place',
      order,
      clordId,
      symbol: o.symbol,
      side: o.side,
      qty: toDecimal(o.qty, 'place.qty'),
      price,
      timeInForce: o.timeInForce ?? 'GOOD_TILL_CANCEL',
      postOnly: o.postOnly ?? false,
      label: o.label,
      account: o.account,
    };
  }

  private replaced(clordId: string, newClordId: string, change: Change): Unnumbered {
    const order = this.nameOf(clordId);
    const symbol = this.symbols.get(clordId);
    if (this.names.has(clordId)) this.names.set(newClordId, order);
    if (symbol !== undefined) this.symbols.set(newClordId, symbol);
    const price = change.price === undefined ? undefined : toDecimal(change.price, 'replace.price');
    const qty = change.qty === undefined ? undefined : toDecimal(change.qty, 'replace.qty');
    return { kind: 'replace', order, clordId, newClordId, symbol, price, qty };
  }

  private crossed(o: CrossOptions, crossId: string): Unnumbered {
    return {
      kind: 'cross',
      crossId,
      symbol: o.symbol,
      qty: toDecimal(o.qty, 'cross.qty'),
      price: toDecimal(o.price, 'cross.price'),
      buyAccount: o.buyAccount,
      sellAccount: o.sellAccount,
    };
  }

  /** The newest intent not refused yet that the refusal names (by the id the call returned, or the order it names). */
  private match(update: OrderUpdateView): RecordedIntent | undefined {
    const kind = field(update, 'kind');
    const id = field(update, 'id') ?? field(update, 'crossId') ?? field(update, 'clordId');
    const symbol = field(update, 'symbol');
    for (let i = this.intents.length - 1; i >= 0; i -= 1) {
      const intent = this.intents[i];
      if (intent === undefined || this.refused.has(intent) || (kind !== undefined && intent.kind !== kind)) continue;
      if (id !== undefined ? idsOf(intent).includes(id) : intent.kind === 'cancelAll' && intent.symbol === symbol) return intent;
    }
    return undefined;
  }

  private refusal(update: OrderUpdateView, time: number, intent: RecordedIntent | undefined): void {
    if (intent !== undefined) this.refused.add(intent);
    const code = field(update, 'code') ?? 'UNKNOWN';
    const symbol = field(update, 'symbol') ?? (intent !== undefined && 'symbol' in intent ? intent.symbol : undefined);
    this.refusals.push({
      time,
      code,
      message: field(update, 'message') ?? '',
      symbol,
      intent,
      text: `${code} ${intent?.text ?? '(intent not recorded)'}`,
    });
  }
}

/** Callback names that receive the context first: every `on*` callback and `operator`. */
const takesContext = (key: string): boolean => key === 'operator' || /^on[A-Z]/.test(key);

/**
 * A definition that behaves as `definition` and records what it does (see StrategyRecorder). Run the returned
 * `strategy`; read `recorder`.
 */
export function recordStrategy(definition: AnyStrategy): { strategy: AnyStrategy; recorder: StrategyRecorder } {
  const recorder = new StrategyRecorder();
  const source = definition as unknown as Record<string, unknown>;
  const wrapped: Record<string, unknown> = { ...source };
  for (const [key, value] of Object.entries(source)) {
    if (typeof value !== 'function' || !takesContext(key)) continue;
    const original = value as (this: unknown, ctx: Ctx, ...rest: unknown[]) => unknown;
    wrapped[key] = (ctx: Ctx, ...rest: unknown[]) => original.call(definition, recorder.wrap(ctx), ...rest);
  }
  const onOrderUpdate = definition.onOrderUpdate;
  wrapped['onOrderUpdate'] = (ctx: Ctx, update: OrderUpdateView) => {
    recorder.update(ctx, update);
    onOrderUpdate?.call(definition, recorder.wrap(ctx), update);
  };
  return { strategy: wrapped as unknown as AnyStrategy, recorder };
}
