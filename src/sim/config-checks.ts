/**
 * Cross-field checks of the `sim` config section, run by the schema itself (zod superRefine) so that
 * `tradebot config check` and every start report all of them at once, each with its path and the fix:
 * scales that are not powers of ten, a tick / lot / price limit / fair value that the scales cannot express
 * or that is off the tick, a fair value outside the price limits, duplicated symbols, usernames,
 * participants and API clients. The checks read the section loosely (a field that failed its own schema is
 * simply skipped), because they also run when other parts of the file have problems.
 */
import type { z } from 'zod';
import { Decimal } from '../domain/decimal.ts';

type Ctx = z.core.$RefinementCtx<unknown>;
type Path = (string | number)[];

const MAX_SCALE = 1e15;

function isPowerOfTen(value: number): boolean {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_SCALE) return false;
  let rest = value;
  while (rest % 10 === 0) rest /= 10;
  return rest === 1;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function dec(value: unknown): Decimal | undefined {
  return value instanceof Decimal ? value : undefined;
}

function issue(ctx: Ctx, path: Path, message: string): void {
  ctx.addIssue({ code: 'custom', path, message });
}

/** The smallest power of ten that expresses `value` exactly (0.001 -> 1000). */
function scaleFor(value: Decimal): number {
  return 10 ** value.decimalPlaces();
}

/**
 * One instrument: scales are powers of ten; tick and lot fit the scales; price limits and fair value fit the
 * price scale and are multiples of the tick; the fair value lies within the limits.
 */
export function checkInstrument(value: unknown, ctx: Ctx): void {
  const inst = record(value);
  if (inst === undefined) return;
  const priceScale = typeof inst['priceScale'] === 'number' ? inst['priceScale'] : undefined;
  const qtyRaw = typeof inst['fractionalQtyScale'] === 'number' ? inst['fractionalQtyScale'] : undefined;
  let priceOk = priceScale !== undefined && isPowerOfTen(priceScale);
  if (priceScale !== undefined && Number.isSafeInteger(priceScale) && priceScale > 0 && !priceOk) {
    issue(ctx, ['priceScale'], `${priceScale} is not a power of ten; use 1, 10, 100, 1000, ... (up to 1e15)`);
  }
  if (priceScale === undefined) priceOk = false;
  const qtyScale = qtyRaw === 0 ? 1 : qtyRaw;
  const qtyOk = qtyScale !== undefined && isPowerOfTen(qtyScale);
  if (qtyRaw !== undefined && Number.isSafeInteger(qtyRaw) && qtyRaw >= 0 && !qtyOk) {
    issue(ctx, ['fractionalQtyScale'], `${qtyRaw} is not 0 or a power of ten; use 1 (whole contracts), 10, 100, ... (0 means 1)`);
  }

  const tick = dec(inst['tickSize']);
  let tickOk = false;
  if (tick !== undefined && tick.gt(0) && priceOk && priceScale !== undefined) {
    tickOk = tick.mul(priceScale).isInteger();
    if (!tickOk) {
      const step = new Decimal(1).div(priceScale).toString();
      issue(
        ctx,
        ['tickSize'],
        `${tick.toString()} is finer than priceScale ${priceScale} can express (steps of ${step}); ` +
          `use a multiple of ${step} or set priceScale to ${scaleFor(tick)}`,
      );
    }
  }
  const lot = dec(inst['lotSize']);
  if (lot !== undefined && lot.gt(0) && qtyOk && qtyScale !== undefined && !lot.mul(qtyScale).isInteger()) {
    const step = new Decimal(1).div(qtyScale).toString();
    issue(
      ctx,
      ['lotSize'],
      `${lot.toString()} is finer than fractionalQtyScale ${qtyRaw ?? ''} can express (steps of ${step}); ` +
        `use a multiple of ${step} or set fractionalQtyScale to ${scaleFor(lot)}`,
    );
  }

  const onTick = (price: Decimal, path: Path): void => {
    if (!priceOk || priceScale === undefined) return;
    if (!price.mul(priceScale).isInteger()) {
      issue(
        ctx,
        path,
        `${price.toString()} has more decimals than priceScale ${priceScale} allows; ` +
          `round it to ${new Decimal(1).div(priceScale).toString()} steps`,
      );
      return;
    }
    if (tick !== undefined && tickOk && !price.mod(tick).isZero()) {
      const below = price.div(tick).floor().mul(tick);
      issue(
        ctx,
        path,
        `${price.toString()} is not a multiple of the tickSize ${tick.toString()}; ` +
          `use ${below.toString()} or ${below.plus(tick).toString()}`,
      );
    }
  };
  const limits = record(inst['priceLimits']);
  const low = dec(limits?.['low']);
  const high = dec(limits?.['high']);
  if (low !== undefined) onTick(low, ['priceLimits', 'low']);
  if (high !== undefined) onTick(high, ['priceLimits', 'high']);
  const fair = dec(inst['fairValue']);
  if (fair !== undefined) {
    onTick(fair, ['fairValue']);
    if (low !== undefined && high !== undefined && low.lt(high) && (fair.lt(low) || fair.gt(high))) {
      issue(
        ctx,
        ['fairValue'],
        `${fair.toString()} is outside the price limits ${low.toString()} to ${high.toString()}; pick a value within them`,
      );
    }
  }
}

/** Reports every later entry whose `key` repeats an earlier one's, at `<list>[j].<key>`. */
function checkUnique(list: unknown, listName: string, key: string, what: string, ctx: Ctx, consequence: string): void {
  if (!Array.isArray(list)) return;
  const first = new Map<string, number>();
  list.forEach((entry, index) => {
    const value = record(entry)?.[key];
    if (typeof value !== 'string' || value === '') return;
    const earlier = first.get(value);
    if (earlier === undefined) first.set(value, index);
    else issue(ctx, [listName, index, key], `${JSON.stringify(value)} is also the ${what} of ${listName}[${earlier}]; ${consequence}`);
  });
}

function sortedList(value: unknown): string {
  return Array.isArray(value) ? [...value].map(String).sort().join(' ') : '';
}

/**
 * API clients: a clientId may appear more than once only for key rotation (several public keys of one
 * client), so its entries must agree on scopes, participant and allowlist and name different key files.
 */
function checkClients(list: unknown, ctx: Ctx): void {
  if (!Array.isArray(list)) return;
  const first = new Map<string, number>();
  list.forEach((entry, index) => {
    const client = record(entry);
    const id = client?.['clientId'];
    if (client === undefined || typeof id !== 'string' || id === '') return;
    const earlierIndex = first.get(id);
    if (earlierIndex === undefined) {
      first.set(id, index);
      return;
    }
    const earlier = record(list[earlierIndex]) ?? {};
    const where = `clients[${earlierIndex}]`;
    if (earlier['publicKeyFile'] === client['publicKeyFile']) {
      issue(
        ctx,
        ['clients', index, 'clientId'],
        `${JSON.stringify(id)} repeats ${where} with the same publicKeyFile; remove the duplicate entry`,
      );
      return;
    }
    const differs: string[] = [];
    if (earlier['participant'] !== client['participant']) differs.push('participant');
    if (sortedList(earlier['scopes']) !== sortedList(client['scopes'])) differs.push('scopes');
    if (
      sortedList(earlier['allowlist']) !== sortedList(client['allowlist']) ||
      (earlier['allowlist'] === undefined) !== (client['allowlist'] === undefined)
    )
      differs.push('allowlist');
    if (differs.length > 0) {
      issue(
        ctx,
        ['clients', index, 'clientId'],
        `${JSON.stringify(id)} is also the clientId of ${where} with different ${differs.join(', ')}; ` +
          'entries of one client (key rotation) must agree, or give this client its own clientId',
      );
    }
  });
}

/** The whole section: duplicates across the lists (each instrument checks itself). */
export function checkSimSection(value: unknown, ctx: Ctx): void {
  const sim = record(value);
  if (sim === undefined) return;
  checkUnique(sim['instruments'], 'instruments', 'symbol', 'symbol', ctx, 'give each instrument its own symbol');
  checkUnique(sim['users'], 'users', 'username', 'username', ctx, 'usernames must be unique (a later entry would replace the earlier one)');
  checkUnique(sim['users'], 'users', 'participant', 'participant', ctx, 'each user needs its own participant name');
  if (Array.isArray(sim['users'])) {
    sim['users'].forEach((user, index) => {
      const accounts = record(user)?.['accounts'];
      if (!Array.isArray(accounts)) return;
      accounts.forEach((account, k) => {
        if (accounts.indexOf(account) < k)
          issue(ctx, ['users', index, 'accounts', k], `${JSON.stringify(account)} is listed twice; remove the repeat`);
      });
    });
  }
  checkClients(sim['clients'], ctx);
}

/** superRefine options that run a check even when other fields of the same object failed their schema. */
export const ALWAYS = { when: () => true } as const;
