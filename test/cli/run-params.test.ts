/**
 * `tradebot run` params errors name where the params came from: the config file and `bot.params.<key>`, or
 * the `--params` file and `<key>` at its root. In-process: the run stops at validation, before connecting.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { captureOutput } from './helpers/output.ts';

afterEach(() => vi.restoreAllMocks());

function file(name: string, text: string): string {
  const target = path.join(mkdtempSync(path.join(tmpdir(), 'tradebot-run-params-')), name);
  writeFileSync(target, text);
  return target;
}

describe('tradebot run: params errors', () => {
  it('names the config file and bot.params.<key>', async () => {
    const sim = parse(readFileSync('config/sim.yaml', 'utf8')) as { bot: Record<string, unknown> };
    sim.bot['params'] = { symbols: ['RAIN'], halfSpread: '-x', colour: 'blue' };
    const config = file('mm.yaml', stringify(sim));
    const io = captureOutput();
    expect(await runCli(['run', '--config', config])).toBe(2);
    expect(io.err()).toContain(`${config} (params of strategy market-maker) has 2 problems:`);
    expect(io.err()).toContain('  bot.params.colour: unknown key');
    expect(io.err()).toContain('  bot.params.halfSpread: expected a decimal string such as "0.55", got "-x"');
  });

  it('names the --params file and the key at its root', async () => {
    const params = file('fade.yaml', 'symbols: [RAIN]\nquoteQty: lots\n');
    const io = captureOutput();
    expect(await runCli(['run', '--params', params])).toBe(2);
    expect(io.err()).toContain(`${params} (params of strategy market-maker) has 1 problem:\n  quoteQty: expected a decimal string`);
  });
});
