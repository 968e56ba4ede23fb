/**
 * A hand-made BacktestResult (the shape runBacktest returns): two symbols over one hour, a seeded random
 * walk for prices, equity and positions, a few dozen fills, refusals, and a param whose value tries to end
 * the inlined <script> element (it must show up as text, never run).
 */
import type { BacktestSeries, FillPoint, ReportFields, SeriesPoint } from '../../../backtest/report/backtest-result.ts';

export const HOSTILE_PARAM = '</script><script>window.__pwned = true</script><!--';

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FixtureOptions {
  readonly seed?: number;
  /** Points per series (one every 5 s). */
  readonly points?: number;
  readonly start?: number;
}

/** A fixture result: the report keeps its documented field types (ReportFields) for tests that read them. */
export function fixtureResult(options: FixtureOptions = {}): { report: ReportFields; series: BacktestSeries } {
  const rnd = random(options.seed ?? 7);
  const n = options.points ?? 720;
  const start = options.start ?? Date.UTC(2026, 10, 2, 14, 30, 0);
  const symbols = ['RAIN-NYC-2026-12-01', 'FED-CUT-2026-12'];
  const price: Record<string, SeriesPoint[]> = {};
  const position: Record<string, SeriesPoint[]> = {};
  const fills: FillPoint[] = [];
  const mid = [0.42, 0.63];
  const pos = [0, 0];
  symbols.forEach((s) => {
    price[s] = [];
    position[s] = [];
  });
  const equity: SeriesPoint[] = [];
  const drawdown: SeriesPoint[] = [];
  let cash = 100000;
  let peak = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = start + i * 5000;
    symbols.forEach((s, k) => {
      const m = Math.min(0.99, Math.max(0.01, (mid[k] ?? 0.5) + (rnd() - 0.5) * 0.01));
      mid[k] = m;
      price[s]?.push({ t, v: m.toFixed(2) });
      if (rnd() < 0.025) {
        const side = rnd() < 0.5 ? 'BUY' : 'SELL';
        const qty = 1 + Math.floor(rnd() * 9);
        pos[k] = (pos[k] ?? 0) + (side === 'BUY' ? qty : -qty);
        cash += (side === 'BUY' ? -qty : qty) * m;
        fills.push({ t: t + 1200, symbol: s, side, price: m.toFixed(2), qty: String(qty) });
        position[s]?.push({ t: t + 1200, v: String(pos[k]) });
      }
    });
    const marked = symbols.reduce((sum, _s, k) => sum + (pos[k] ?? 0) * (mid[k] ?? 0), cash);
    peak = Math.max(peak, marked);
    equity.push({ t, v: marked.toFixed(4) });
    drawdown.push({ t, v: (peak - marked).toFixed(4) });
  }
  const last = Number(equity[equity.length - 1]?.v ?? '100000');
  return {
    report: {
      pnl: { total: (last - 100000).toFixed(4), realized: '12.3400', unrealized: (last - 100000 - 12.34).toFixed(4) },
      fees: '1.9800',
      fills: fills.length,
      orders: fills.length * 3 + 5,
      refusals: { RISK_MAX_POSITION: 4, RISK_PRICE_BAND: 1 },
      maxDrawdown: Math.max(...drawdown.map((d) => Number(d.v))).toFixed(4),
      sharpe: 1.234567,
      sortino: 1.87654,
      turnover: '1234.56',
      events: 125_000,
      eventsPerSecond: 431_034.5,
      strategy: 'market-maker',
      params: { halfSpread: '0.01', quoteQty: '5', note: HOSTILE_PARAM },
      data: 'backtest/data/sample-2026-11-02.jsonl',
      config: { file: 'config/backtest.yaml', seed: 7, latencyMs: 25 },
    },
    series: { equity, drawdown, position, price, fills },
  };
}
