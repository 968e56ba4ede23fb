/**
 * ClordChain's window: older ids leave one or two per new id (never in a batch), only once confirmed; the
 * first id is kept for good; versions keep their meaning after ids left; pending (unconfirmed) ids never leave,
 * and the window catches up once they are confirmed.
 */
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
