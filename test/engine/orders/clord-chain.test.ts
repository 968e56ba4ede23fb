/**
 * ClordChain's window: older ids leave one or two per new id (never in a batch), only once confirmed; the
 * first id is kept for good; versions keep their meaning after ids left; pending (unconfirmed) ids never leave,
 * and the window catches up once they are confirmed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHAIN_WINDOW, ClordChain } from '../../../src/engine/orders/clord-chain.ts';

describe('ClordChain', () => {
  it('drops at most two ids per push, keeps the first and the window, and versions stay put', () => {
    const chain = new ClordChain('c0');
    const dropped: string[] = [];
    for (let v = 1; v <= 10 * CHAIN_WINDOW; v++) {
      const gone = chain.push(`c${v}`, v - 1);
      expect(gone.length).toBeLessThanOrEqual(2);
      dropped.push(...gone);
    }
    expect(dropped).not.toContain('c0');
    expect(chain.length).toBe(10 * CHAIN_WINDOW + 1);
    expect(chain.kept()).toEqual(['c0', ...Array.from({ length: CHAIN_WINDOW }, (_, i) => `c${9 * CHAIN_WINDOW + 1 + i}`)]);
    expect(chain.versionOf(`c${10 * CHAIN_WINDOW}`)).toBe(10 * CHAIN_WINDOW);
    expect(chain.versionOf('c5')).toBe(-1);
    expect(chain.versionOf('c0')).toBe(0);
    expect(chain.at(10 * CHAIN_WINDOW - 3)).toBe(`c${10 * CHAIN_WINDOW - 3}`);
    // every id that left was reported exactly once, oldest first
    expect(dropped).toEqual(Array.from({ length: 9 * CHAIN_WINDOW }, (_, i) => `c${i + 1}`));
  });

  it('keeps unconfirmed ids, then catches up two at a time once they are confirmed', () => {
    const chain = new ClordChain('c0');
    for (let v = 1; v <= 3 * CHAIN_WINDOW; v++) expect(chain.push(`c${v}`, 0)).toEqual([]);
    expect(chain.kept()).toHaveLength(3 * CHAIN_WINDOW + 1);
    let v = 3 * CHAIN_WINDOW;
    let pushes = 0;
    while (chain.kept().length > CHAIN_WINDOW + 1) {
      v += 1;
      pushes += 1;
      expect(chain.push(`c${v}`, v - 1).length).toBeLessThanOrEqual(2);
    }
    expect(pushes).toBeLessThanOrEqual(2 * CHAIN_WINDOW + 1);
    expect(chain.at(v)).toBe(`c${v}`);
  });
});

/** The chain as a plain history: every id by version, and how many versions left the window. */
class HistoryModel {
  readonly ids: string[];
  offset = 0;
  constructor(readonly first: string) {
    this.ids = [first];
  }
  push(id: string, confirmed: number): string[] {
    this.ids.push(id);
    const drop = Math.min(2, this.ids.length - this.offset - CHAIN_WINDOW, confirmed - this.offset);
    if (drop <= 0) return [];
    const gone = this.ids.slice(this.offset, this.offset + drop).filter((_, k) => this.offset + k > 0);
    this.offset += drop;
    return gone;
  }
  removeAt(version: number): void {
    const i = version - this.offset;
    if (version > 0 && i >= 0 && version < this.ids.length) this.ids.splice(version, 1);
  }
  at(version: number): string | undefined {
    return version === 0 ? this.first : version >= this.offset ? this.ids[version] : undefined;
  }
  versionOf(id: string): number {
    const v = this.ids.lastIndexOf(id);
    return v >= this.offset ? v : id === this.first ? 0 : -1;
  }
  kept(): string[] {
    return this.offset === 0 ? [...this.ids] : [this.first, ...this.ids.slice(this.offset)];
  }
  upTo(count: number): string[] {
    const out = this.offset > 0 && count > 0 ? [this.first] : [];
    for (let v = this.offset; v < this.ids.length && v < count; v++) out.push(this.ids[v] as string);
    return out;
  }
}

describe('ClordChain against a plain history of its ids', () => {
  it('answers every query the same after any pushes, confirmations and removals', () => {
    const op = fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('push' as const), lag: fc.integer({ min: 0, max: 80 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), back: fc.integer({ min: 0, max: 90 }) }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const chain = new ClordChain('c0');
        const model = new HistoryModel('c0');
        let next = 1;
        for (const o of ops) {
          if (o.kind === 'push') {
            const id = `c${next++}`;
            // confirmed: some version up to the newest (a lag of unconfirmed replaces)
            const confirmed = Math.max(0, model.ids.length - o.lag);
            expect([...chain.push(id, confirmed)]).toEqual(model.push(id, confirmed));
          } else {
            const version = model.ids.length - 1 - o.back;
            chain.removeAt(version);
            model.removeAt(version);
          }
          expect(chain.length).toBe(model.ids.length);
          expect(chain.kept()).toEqual(model.kept());
          for (const v of [0, 1, model.offset - 1, model.offset, model.ids.length - 1, model.ids.length])
            expect(chain.at(v)).toBe(model.at(v));
          for (const id of ['c0', `c${next - 1}`, `c${Math.max(0, next - 70)}`, `c${Math.floor(next / 2)}`, 'unknown'])
            expect(chain.versionOf(id)).toBe(model.versionOf(id));
          for (const count of [0, 1, model.offset + 1, model.ids.length]) expect(chain.upTo(count)).toEqual(model.upTo(count));
        }
      }),
      { numRuns: 200 },
    );
  });
});
