/**
 * End to end, with real processes (#15): `tradebot sim` and a `tradebot run` with `bot.strategies` (two
 * market makers, one contract each) connected to it as to an environment. The bot is SIGKILLed once its
 * journal shows both strategies holding a position, restarted on the same journal, and stopped with SIGINT.
 * - the restarted run gives each strategy the positions its last `holding` lines recorded (its log says so);
 * - at the clean stop, each strategy's positions in run.summary add up to the totals (which the final
 *   reconciliation took from the exchange) with nothing unattributed, so no fill was lost or counted twice
 *   across the kill;
 * - the compacted journal keeps each strategy's position that is not flat, as run.summary shows it.
 * Waits only on journal contents, log lines and process exits.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKeyFiles } from '../../../src/cli/commands/keygen.ts';
import { ACCOUNT } from './helpers/entries.ts';
import { exchangeYaml, KILL_TEST_PASSWORD, simAccessYaml } from './helpers/external-sim-yaml.ts';
import { journalLines, killAll, tradebot, watchJournal } from './helpers/processes.ts';

afterAll(killAll);

const CLIENT_ID = 'journal-kill-strategies';
const RAIN = 'RAIN-NYC-2026-12-01';
const SNOW = 'SNOW-CHI-2026-12-01';

function simYaml(publicKeyFile: string): string {
  const instrument = (symbol: string) => `
    - { symbol: ${symbol}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01",
        priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.42" }`;
  return `
logging: { level: warn, pretty: false }
sim:
${simAccessYaml(publicKeyFile, CLIENT_ID)}
  instruments:${instrument(RAIN)}${instrument(SNOW)}
  activity: { enabled: true, seed: 9, intervalMs: 40, makersPerInstrument: 3,
    takerProbability: "0.7", volatilityTicks: "1", maxOrderQty: 6 }
`;
}

function botYaml(ready: Record<string, string>, privateKeyFile: string, journal: string): string {
  const maker = (id: string, symbol: string) => `
    - id: ${id}
      strategy: market-maker
      params: { symbols: [${symbol}], halfSpread: "0.01", quoteQty: "2", maxInventory: "20", skewPerContract: "0.001" }`;
  return `
logging: { level: info, pretty: false }
${exchangeYaml(ready, privateKeyFile, CLIENT_ID)}
bot:
  account: ${ACCOUNT}
  journal: ${JSON.stringify(journal)}
  strategies:${maker('mm-rain', RAIN)}${maker('mm-snow', SNOW)}
risk:
  maxOrderQty: "10"
  maxPosition: "30"
  maxOpenOrders: 10
  maxMessagesPerSecond: 50
`;
}

type Line = Record<string, unknown>;

/** The last `holding` line's quantity per strategy (and symbol). */
function lastHoldings(lines: readonly Line[]): Map<string, string> {
  const held = new Map<string, string>();
  for (const line of lines)
    if (line['type'] === 'holding') held.set(`${String(line['strategy'])} ${String(line['symbol'])}`, String(line['qty']));
  return held;
}

interface Part {
  positions: Record<string, string>;
}

describe('order journal: several strategies killed and restarted against an external simulator', () => {
  it('gives each strategy its own positions back, and they add up to the exchange at the end', { timeout: 90_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'tradebot-kill-strategies-'));
    const keys = generateKeyFiles(path.join(dir, 'keys'));
    fs.writeFileSync(path.join(dir, 'sim.yaml'), simYaml(keys.publicKeyFile));
    const sim = tradebot(['sim', '--config', path.join(dir, 'sim.yaml')]);
    try {
      const ready = JSON.parse(await sim.line('stdout', (l) => l.includes('sim.ready'), 'sim.ready')) as Record<string, string>;
      const journal = path.join(dir, 'state', 'journal.jsonl');
      fs.mkdirSync(path.dirname(journal));
      const botConfig = path.join(dir, 'bot.yaml');
      fs.writeFileSync(botConfig, botYaml(ready, keys.privateKeyFile, journal));
      process.env['KILL_TEST_PASSWORD'] = KILL_TEST_PASSWORD;
      const runBot = () => tradebot(['run', '--config', botConfig]);

      // run 1: killed while both strategies hold a position
      const first = runBot();
      const bothHold = (lines: Line[]) => {
        const held = lastHoldings(lines);
        return [`mm-rain ${RAIN}`, `mm-snow ${SNOW}`].every((key) => (held.get(key) ?? '0') !== '0');
      };
      await watchJournal(journal, bothHold, first, 'both strategies holding a position');
      first.child.kill('SIGKILL');
      expect((await first.exit).signal).toBe('SIGKILL');
      const atKill = lastHoldings(journalLines(journal));

      // run 2: the same journal; each strategy holds what its last holding line says
      const second = runBot();
      for (const [id, symbol] of [
        ['mm-rain', RAIN],
        ['mm-snow', SNOW],
      ] as const) {
        const restored = JSON.parse(
          await second.line('stderr', (l) => l.includes(`strategy ${id} holds its positions`), `${id}'s positions restored`),
        ) as { positions: Record<string, string> };
        expect(restored.positions).toEqual({ [`${ACCOUNT} ${symbol}`]: atKill.get(`${id} ${symbol}`) });
      }
      await second.line('stderr', (l) => l.includes('reconciled with the exchange'), 'the first reconciliation');
      const killedAt = journalLines(journal).length;
      await watchJournal(
        journal,
        (lines) => lines.slice(killedAt).filter((l) => l['type'] === 'holding').length >= 4,
        second,
        'run 2 fills',
      );
      second.child.kill('SIGINT');
      expect(await second.exit, second.stderr.slice(-20).join('\n')).toEqual({ code: 0, signal: null });

      const summary = JSON.parse(second.stdout.at(-1) ?? '{}') as {
        event: string;
        reconciled: boolean;
        positions: Record<string, string>;
        strategies: Record<string, Part>;
        unattributed?: Part;
      };
      expect(summary.event).toBe('run.summary');
      expect(summary.reconciled).toBe(true);
      // the totals are the exchange's (the final reconciliation); the strategies' parts explain all of them
      expect(summary.unattributed?.positions ?? {}).toEqual({});
      expect(summary.strategies['mm-rain']?.positions[RAIN] ?? '0').toBe(summary.positions[RAIN] ?? '0');
      expect(summary.strategies['mm-snow']?.positions[SNOW] ?? '0').toBe(summary.positions[SNOW] ?? '0');

      // the compacted journal keeps each position that is not flat
      const compacted = lastHoldings(journalLines(journal));
      for (const [id, symbol] of [
        ['mm-rain', RAIN],
        ['mm-snow', SNOW],
      ] as const) {
        const qty = summary.strategies[id]?.positions[symbol] ?? '0';
        expect(compacted.get(`${id} ${symbol}`) ?? '0').toBe(qty);
      }
    } finally {
      delete process.env['KILL_TEST_PASSWORD'];
      sim.child.kill('SIGINT');
      await sim.exit;
    }
  });
});
