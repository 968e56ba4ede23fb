/**
 * A quant's path outside this repository, end to end (issue #19's "done when"): `npm pack` (its prepack
 * builds dist/), then in an empty folder `npm init -y`, `npm install <tarball>`, `npx tradebot init`,
 * `npm install`, the scaffold's `npm test` and `npx tsc --noEmit`; a plugin written there that imports only
 * `tradebot/strategy` backtests (fills in report.json) and runs live against the embedded exchange (orders in
 * run.summary). Slow (a build and two installs from the npm registry, ~1-2 min): one test that does it all.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'tradebot-outside-'));

/** The environment without what the npm running this suite set for itself (npm_config_*, npm_package_*, ...). */
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') && key !== 'INIT_CWD'));

interface Ran {
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string, timeoutMs = 240_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(command, [...args], { cwd, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error)
        reject(
          new Error(
            `${command} ${args.join(' ')} (in ${cwd}) failed: ${error.message}\n` +
              `--- stdout\n${stdout.slice(-3000)}\n--- stderr\n${stderr.slice(-3000)}`,
          ),
        );
      else resolve({ stdout, stderr });
    });
  });
}

const npm = (args: readonly string[], cwd: string) => run('npm', ['--no-audit', '--no-fund', '--prefer-offline', ...args], cwd);
const npx = (args: readonly string[], cwd: string) => run('npx', ['--no-install', ...args], cwd);

/** A taker that imports only tradebot/strategy: buys `qty` at the offer when the mid rose `edge` since the last book. */
const TAKER = `import { decimal, defineStrategy, symbols, z, type Decimal } from 'tradebot/strategy';

export default defineStrategy({
  name: 'x',
  params: z.strictObject({ symbols: symbols(), edge: decimal({ positive: true }), qty: decimal({ positive: true }), ratio: z.number() }),
  state: () => ({ last: new Map<string, Decimal>() }),
  onBook(ctx, book) {
    if (book.stale || book.mid === undefined) return;
    const last = ctx.state.last.get(book.symbol);
    ctx.state.last.set(book.symbol, book.mid);
    if (last === undefined || ctx.openOrders(book.symbol).length > 0) return;
    const move = book.mid.minus(last);
    if (move.abs().lt(ctx.params.edge)) return;
    const side = move.isPositive() ? 'BUY' : 'SELL';
    const price = side === 'BUY' ? book.bestOffer : book.bestBid;
    if (price !== undefined) ctx.place({ symbol: book.symbol, side, qty: ctx.params.qty, price, timeInForce: 'IMMEDIATE_OR_CANCEL' });
  },
});
`;

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarball, installed outside the repository', () => {
  it('installs, scaffolds a project whose tests and type-check pass, and backtests and runs a plugin written there', async () => {
    await npm(['pack', '--pack-destination', work], REPO);
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    const project = path.join(work, 'quant');
    await run('mkdir', [project], work);
    await npm(['init', '-y'], project);
    await npm(['install', path.join(work, tarball!)], project);
    const init = await npx(['tradebot', 'init'], project);
    expect(init.stdout).toContain('wrote    strategies/example.ts');
    await npm(['install'], project);
    const tests = await npm(['test'], project);
    // eslint-disable-next-line no-control-regex -- strips the colours of the runner's output
    expect(tests.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Tests\s+\d+ passed/);
    await npx(['tsc', '--noEmit', '-p', '.'], project);

    writeFileSync(path.join(project, 'strategies', 'x.ts'), TAKER);
    // ratio: a fractional YAML number into z.number()
    writeFileSync(path.join(project, 'x.yaml'), 'symbols: [RAIN-NYC-2026-12-01, FED-CUT-2026-12]\nedge: "0.01"\nqty: "1"\nratio: 0.25\n');
    await npx(
      ['tradebot', 'backtest', '--strategy', 'strategies/x.ts', '--params', 'x.yaml', '--data', 'data/sample.jsonl', '--out', 'out/x'],
      project,
    );
    const report = JSON.parse(readFileSync(path.join(project, 'out', 'x', 'report.json'), 'utf8')) as { strategy: string; fills: number };
    expect(report.strategy).toBe('x');
    expect(report.fills).toBeGreaterThan(0);

    const live = await npx(['tradebot', 'run', '--strategy', 'strategies/x.ts', '--params', 'x.yaml', '--duration', '10'], project);
    const summaryLine = live.stdout.trim().split('\n').at(-1) ?? '';
    const summary = JSON.parse(summaryLine) as { event: string; orders: number };
    expect(summary.event).toBe('run.summary');
    expect(summary.orders).toBeGreaterThan(0);
  }, 600_000);
});
