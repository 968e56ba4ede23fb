/**
 * Strategy params through the CLI, in-process (src/cli/actions/*.ts, src/cli/params-file.ts): `config check`
 * loads the strategy a config names (a path relative to the config file's folder, whatever the working
 * folder) and validates its bot.params, naming the file and `bot.params.<key>`; a bad `--params` file is
 * reported in one form by `backtest`, `run` and `sweep` (the file, the strategy, the key at the file's root);
 * `sweep --params` runs its grid over that file's params.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { captureOutput } from './helpers/output.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLE = path.join(ROOT, 'backtest', 'data', 'sample.jsonl');
const STRATEGY_ENTRY = fileURLToPath(new URL('../../src/strategy.ts', import.meta.url));

afterEach(() => vi.restoreAllMocks());

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'tradebot-params-forms-'));
}

function write(dir: string, name: string, text: string): string {
  const target = path.join(dir, ...name.split('/'));
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, text);
  return target;
}

/**
 * tradebot's config `name` (config/sim.yaml, config/backtest.yaml) with `edit` applied to its bot section,
 * comments and exact numbers kept.
 */
function editedConfig(name: string, edit: (doc: ReturnType<typeof parseDocument>) => void): string {
  const doc = parseDocument(readFileSync(path.join(ROOT, 'config', name), 'utf8'));
  edit(doc);
  return doc.toString();
}

/** A config's bot.params with `halfSpread` misspelt `halfSpred`. */
const typoInParams = (doc: ReturnType<typeof parseDocument>) => {
  doc.deleteIn(['bot', 'params', 'halfSpread']);
  doc.setIn(['bot', 'params', 'halfSpred'], '0.02');
};

/** The error block runCli printed: from after "tradebot: " to before " [CODE]". */
function reported(err: string): string {
  const match = /tradebot: ([\s\S]*?) \[[A-Z_]+\]\n/.exec(err);
  expect(match, err).not.toBeNull();
  return match?.[1] ?? '';
}

/** A plugin outside the repository (on tradebot's entry by absolute path) with one decimal and one number param. */
const FADE_PLUGIN = [
  `import { defineStrategy, decimal, symbols, z } from ${JSON.stringify(STRATEGY_ENTRY)};`,
  'export default defineStrategy({',
  "  name: 'fade',",
  '  params: z.strictObject({ symbols: symbols(), edge: decimal({ positive: true }), zScore: z.number().positive() }),',
  '});',
  '',
].join('\n');

describe('config check: the strategy and its bot.params', () => {
  it.for(['sim.yaml', 'backtest.yaml'])(
    'a typo in bot.params of a %s-like config: exit 2 naming the file and bot.params.<key>',
    async (name) => {
      const file = write(tempDir(), name, editedConfig(name, typoInParams));
      const io = captureOutput();
      expect(await runCli(['config', 'check', file])).toBe(2);
      expect(reported(io.err())).toBe(
        `${file} (params of strategy market-maker) has 1 problem:\n  bot.params.halfSpred: unknown key; did you mean "halfSpread"?`,
      );
      expect(io.err()).toContain('[CONFIG_INVALID]');
      expect(io.out()).toBe('');
    },
  );

  it('a bad value is named by its path too, and a good config says ok with the strategy', async () => {
    const dir = tempDir();
    const bad = write(
      dir,
      'bad.yaml',
      editedConfig('sim.yaml', (doc) => doc.setIn(['bot', 'params', 'quoteQty'], 'lots')),
    );
    const io = captureOutput();
    expect(await runCli(['config', 'check', bad])).toBe(2);
    expect(io.err()).toContain(`${bad} (params of strategy market-maker) has 1 problem:\n  bot.params.quoteQty: expected a decimal string`);
    const good = write(
      dir,
      'good.yaml',
      editedConfig('sim.yaml', () => undefined),
    );
    expect(await runCli(['config', 'check', good])).toBe(0);
    expect(io.out()).toBe(`${good}: ok (strategy market-maker)\n`);
  });

  it("resolves a relative bot.strategy against the config file's folder, not the working folder", async () => {
    const project = tempDir();
    write(project, 'plugins/fade.ts', FADE_PLUGIN);
    const config = write(
      project,
      'config/fade.yaml',
      editedConfig('sim.yaml', (doc) => {
        doc.setIn(['bot', 'strategy'], '../plugins/fade.ts');
        doc.setIn(['bot', 'params'], doc.createNode({ symbols: ['RAIN-NYC-2026-12-01'], edge: '0.03' }));
        doc.setIn(['bot', 'params', 'zScore'], 1.25);
      }),
    );
    expect(readFileSync(config, 'utf8')).toContain('zScore: 1.25');
    const elsewhere = tempDir();
    const cwd = process.cwd();
    const io = captureOutput();
    process.chdir(elsewhere);
    let code: number;
    try {
      // ../plugins/fade.ts from here does not exist; from config/ it does
      expect(existsSync(path.resolve('../plugins/fade.ts'))).toBe(false);
      code = await runCli(['config', 'check', config]);
    } finally {
      process.chdir(cwd);
    }
    expect(code, io.err()).toBe(0);
    expect(io.out()).toBe(`${config}: ok (strategy fade)\n`);
  });

  it("a relative bot.strategy missing beside the config: STRATEGY_NOT_FOUND with the path resolved from the config's folder", async () => {
    const project = tempDir();
    const config = write(
      project,
      'config/fade.yaml',
      editedConfig('sim.yaml', (doc) => doc.setIn(['bot', 'strategy'], '../plugins/gone.ts')),
    );
    const io = captureOutput();
    expect(await runCli(['config', 'check', config])).toBe(2);
    expect(io.err()).toContain(`no strategy file at ${path.join(project, 'plugins', 'gone.ts')}`);
    expect(io.err()).toContain('[STRATEGY_NOT_FOUND]');
  });

  it("a plugin's bot.params problems name the config file and bot.params.<key>", async () => {
    const project = tempDir();
    write(project, 'plugins/fade.ts', FADE_PLUGIN);
    const config = write(
      project,
      'fade.yaml',
      editedConfig('sim.yaml', (doc) => {
        doc.setIn(['bot', 'strategy'], './plugins/fade.ts');
        doc.setIn(['bot', 'params'], doc.createNode({ symbols: ['RAIN-NYC-2026-12-01'], edge: '0.03', zScore: 'big' }));
      }),
    );
    const io = captureOutput();
    expect(await runCli(['config', 'check', config])).toBe(2);
    expect(reported(io.err())).toBe(
      `${config} (params of strategy fade) has 1 problem:\n  bot.params.zScore: expected a number, got "big"`,
    );
  });
});

describe('a bad --params file: one form for backtest, run and sweep', () => {
  const BAD = 'symbols: [RAIN-NYC-2026-12-01]\nhalfSpred: "0.02"\n';
  const expected = (file: string) =>
    `${file} (params of strategy market-maker) has 1 problem:\n  halfSpred: unknown key; did you mean "halfSpread"?`;

  it('backtest --params bad.yaml', async () => {
    const dir = tempDir();
    const bad = write(dir, 'bad.yaml', BAD);
    const io = captureOutput();
    expect(
      await runCli([
        'backtest',
        '--strategy',
        'market-maker',
        '--data',
        SAMPLE,
        '--params',
        bad,
        '--out',
        path.join(dir, 'out'),
        '--log-level',
        'error',
      ]),
    ).toBe(2);
    expect(reported(io.err())).toBe(expected(bad));
    expect(io.err()).not.toContain('strategy.params.');
    expect(io.err()).not.toContain('bot.params.');
    expect(existsSync(path.join(dir, 'out', 'report.json'))).toBe(false);
  });

  it('run --params bad.yaml (stops at validation, before connecting)', async () => {
    const bad = write(tempDir(), 'bad.yaml', BAD);
    const io = captureOutput();
    expect(await runCli(['run', '--params', bad, '--log-level', 'error'])).toBe(2);
    expect(reported(io.err())).toBe(expected(bad));
    expect(io.err()).not.toContain('strategy.params.');
  });

  it('sweep --params bad.yaml, before any run', async () => {
    const dir = tempDir();
    const bad = write(dir, 'bad.yaml', BAD);
    const grid = write(dir, 'grid.yaml', 'quoteQty: ["2", "3"]\n');
    const io = captureOutput();
    expect(
      await runCli([
        'sweep',
        '--strategy',
        'market-maker',
        '--data',
        SAMPLE,
        '--grid',
        grid,
        '--params',
        bad,
        '--out',
        path.join(dir, 'sweep'),
        '--workers',
        '1',
      ]),
    ).toBe(2);
    expect(reported(io.err())).toBe(expected(bad));
    expect(io.err()).not.toContain('strategy.params.');
    expect(existsSync(path.join(dir, 'sweep'))).toBe(false);
  });

  it('a --params file in the wrapped form (only key `params`) is read the same way', async () => {
    const dir = tempDir();
    const bad = write(dir, 'wrapped.yaml', `params:\n${BAD.replace(/^/gm, '  ').trimEnd()}\n`);
    const io = captureOutput();
    expect(
      await runCli([
        'backtest',
        '--strategy',
        'market-maker',
        '--data',
        SAMPLE,
        '--params',
        bad,
        '--out',
        path.join(dir, 'out'),
        '--log-level',
        'error',
      ]),
    ).toBe(2);
    expect(reported(io.err())).toBe(expected(bad));
  });

  it('a config whose bot.params has a typo: backtest names the config file and bot.params.<key>, as config check does', async () => {
    const dir = tempDir();
    const config = write(dir, 'bt.yaml', editedConfig('backtest.yaml', typoInParams));
    const io = captureOutput();
    expect(await runCli(['backtest', '--data', SAMPLE, '--config', config, '--out', path.join(dir, 'out'), '--log-level', 'error'])).toBe(
      2,
    );
    const fromBacktest = reported(io.err());
    expect(fromBacktest).toBe(
      `${config} (params of strategy market-maker) has 1 problem:\n  bot.params.halfSpred: unknown key; did you mean "halfSpread"?`,
    );
    vi.restoreAllMocks();
    const check = captureOutput();
    expect(await runCli(['config', 'check', config])).toBe(2);
    expect(reported(check.err())).toBe(fromBacktest);
  });
});

describe('sweep --params', () => {
  it("runs the grid over the params file (not the config's bot.params): sweep.json, the ranking and each report have them", async () => {
    const dir = tempDir();
    // the config's bot.params trade two symbols with quoteQty "5"; the base trades one, quoteQty "3"
    const base = write(dir, 'base.yaml', 'symbols: [FED-CUT-2026-12]\nquoteQty: "3"\nmaxInventory: "12"\nrequoteTicks: 2\n');
    const grid = write(dir, 'grid.yaml', 'halfSpread: ["0.01", "0.03"]\n');
    const out = path.join(dir, 'sweep');
    const io = captureOutput();
    const code = await runCli([
      'sweep',
      '--strategy',
      'market-maker',
      '--data',
      SAMPLE,
      '--grid',
      grid,
      '--params',
      base,
      '--config',
      path.join(ROOT, 'config', 'backtest.yaml'),
      '--out',
      out,
      '--workers',
      '1',
      '--rank-by',
      'pnl.total',
    ]);
    expect(code, io.err()).toBe(0);
    const summary = JSON.parse(io.out().trim()) as { runs: number; ok: number; workers: number; best: { params: Record<string, unknown> } };
    expect(summary).toMatchObject({ runs: 2, ok: 2, workers: 1 });

    const sweep = JSON.parse(readFileSync(path.join(out, 'sweep.json'), 'utf8')) as {
      baseParams: unknown;
      runs: { run: string; params: Record<string, unknown> }[];
    };
    expect(sweep.baseParams).toEqual({ symbols: ['FED-CUT-2026-12'], quoteQty: '3', maxInventory: '12', requoteTicks: 2 });
    const byRun = new Map(sweep.runs.map((r) => [r.run, r.params]));
    expect(byRun.get('001')).toEqual({
      symbols: ['FED-CUT-2026-12'],
      quoteQty: '3',
      maxInventory: '12',
      requoteTicks: 2,
      halfSpread: '0.01',
    });
    expect(byRun.get('002')).toEqual({
      symbols: ['FED-CUT-2026-12'],
      quoteQty: '3',
      maxInventory: '12',
      requoteTicks: 2,
      halfSpread: '0.03',
    });

    // the runs themselves traded with those params
    for (const [run, halfSpread] of [
      ['001', '0.01'],
      ['002', '0.03'],
    ] as const) {
      const report = JSON.parse(readFileSync(path.join(out, 'runs', run, 'report.json'), 'utf8')) as { params: Record<string, unknown> };
      expect(report.params).toMatchObject({ symbols: ['FED-CUT-2026-12'], quoteQty: '3', maxInventory: '12', requoteTicks: 2, halfSpread });
    }
    const csv = readFileSync(path.join(out, 'ranking.csv'), 'utf8').split('\r\n');
    const header = csv[0]?.split(',') ?? [];
    const column = header.indexOf('param.halfSpread');
    expect(column).toBeGreaterThan(-1);
    expect(
      csv
        .slice(1, 3)
        .map((row) => row.split(',')[column])
        .sort(),
    ).toEqual(['0.01', '0.03']);
  }, 120_000);
});

describe('sweep --params: a base that leaves a param to the grid', () => {
  it('runs, as the same grid does without --params (the base is checked with the first combination over it)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-sweep-base-'));
    writeFileSync(path.join(dir, 'base.yaml'), 'quoteQty: "3"\n');
    writeFileSync(path.join(dir, 'grid.yaml'), 'symbols: [[RAIN-NYC-2026-12-01], [FED-CUT-2026-12]]\n');
    const io = captureOutput();
    const code = await runCli([
      'sweep',
      '--strategy',
      'market-maker',
      '--data',
      'backtest/data/sample.jsonl',
      '--grid',
      path.join(dir, 'grid.yaml'),
      '--params',
      path.join(dir, 'base.yaml'),
      '--out',
      path.join(dir, 'out'),
      '--workers',
      '1',
    ]);
    expect(code, io.err()).toBe(0);
    const sweep = JSON.parse(readFileSync(path.join(dir, 'out', 'sweep.json'), 'utf8')) as { baseParams: Record<string, unknown> };
    expect(sweep.baseParams).toEqual({ quoteQty: '3' });
  }, 120_000);
});
