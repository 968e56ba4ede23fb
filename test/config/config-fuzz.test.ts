/**
 * Fuzzing the config loader with the project's own files (config/sim.yaml and the environment templates):
 * keys deleted, values of the wrong type, unknown keys, lists where mappings belong, deep nesting, and
 * broken YAML text (stray indicators, tabs, anchors and aliases, tags, truncation). Every outcome is a
 * valid config or a ConfigError whose every problem names a field path (only whole-file problems such as
 * YAML syntax have none) and says what to write, not zod's generic "Invalid input"; never another
 * exception. `tradebot config check` on bad files exits 2 with the problems on stderr and no stack trace.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ConfigError, configSchema, parseConfigText } from '../../src/config/index.ts';
import { applyMutations, hostileString, mutation, nestedText, type Json } from '../sim/fuzz/helpers/arbitraries.ts';
import { fuzzRuns } from '../sim/fuzz/helpers/fuzz-sim.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILES = ['sim', 'development', 'preproduction', 'production'].map((name) => path.join(ROOT, 'config', `${name}.yaml`));

/** Plausible values for every `${VAR}` a template references, by the variable's suffix. */
const VALUE_BY_SUFFIX: [RegExp, string][] = [
  [/_CLIENT_ID$/, 'client-123'],
  [/_PARTICIPANT$/, 'firms/acme/users/bot'],
  [/_ACCOUNT$/, 'firms/acme/accounts/main'],
  [/_MFA_SECRET$/, 'JBSWY3DPEHPK3PXP'],
  [/_PASSWORD$/, 'not-a-real-password-42'],
];

function envFor(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [, name] of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) {
    env[name as string] = VALUE_BY_SUFFIX.find(([suffix]) => suffix.test(name as string))?.[1] ?? 'value-1';
  }
  return env;
}

interface Source {
  file: string;
  text: string;
  tree: Json;
  env: Record<string, string>;
}

const SOURCES: Source[] = FILES.map((file) => {
  const text = readFileSync(file, 'utf8');
  return { file, text, tree: parse(text) as Json, env: envFor(text) };
});

/** zod's own wording, which names no fix: a problem must never read like this. */
const GENERIC = /^(Invalid input|Invalid option|Too (small|big)|Unrecognized key)/;

/** Loads `text` as `source.file`; returns 'valid', or checks the ConfigError and returns its problems. */
function load(source: Source, text: string): 'valid' | ConfigError {
  try {
    parseConfigText(text, configSchema, { env: source.env, file: source.file });
    return 'valid';
  } catch (error) {
    if (!(error instanceof ConfigError))
      throw new Error(`not a ConfigError: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, { cause: error });
    expect(error.problems.length).toBeGreaterThan(0);
    for (const problem of error.problems) {
      const where = `${problem.path || '(file)'}: ${problem.message}`;
      expect(problem.message.trim().length, where).toBeGreaterThan(0);
      expect(problem.message, where).not.toMatch(GENERIC);
      expect(problem.message, where).not.toMatch(/\n\s+at /);
      // Only problems of the file as a whole may lack a path: YAML it cannot read, or a root that is no mapping.
      if (problem.path === '') expect(problem.message, where).toMatch(/YAML|mapping|cannot read|nests too deeply|aliases/);
    }
    return error;
  }
}

const sourceIndex = fc.nat({ max: SOURCES.length - 1 });

describe('config files under mutation', () => {
  it('the files load as they are', () => {
    for (const source of SOURCES) expect(load(source, source.text), source.file).toBe('valid');
  });

  it('mutated trees load, or fail with a ConfigError whose every problem has a path and a fix', () => {
    const outcomes = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(sourceIndex, fc.array(mutation, { minLength: 1, maxLength: 4 }), (i, mutations) => {
        const source = SOURCES[i] as Source;
        const tree = applyMutations(source.tree, mutations);
        let text: string;
        try {
          text = stringify(tree, { aliasDuplicateObjects: false, lineWidth: 0 });
        } catch {
          return; // a tree the YAML writer cannot express (deeper than its own stack) says nothing about the loader
        }
        outcomes[load(source, text) === 'valid' ? 'valid' : 'invalid'] += 1;
      }),
      { numRuns: fuzzRuns(150) },
    );
    expect(outcomes.invalid).toBeGreaterThan(75);
  });

  it('broken YAML text fails with a ConfigError, never another exception', () => {
    const inserts = [
      ':',
      ': ',
      '\t',
      '[',
      ']',
      '{',
      '}',
      '"',
      "'",
      '&a ',
      '*a',
      '*nope',
      '!!binary ',
      '!!set ',
      '!foo ',
      '- ',
      '\n  ',
      '\n\t',
      '%YAML 1.1\n',
      '---\n',
      '? ',
      '|',
      '>',
      '#',
      '@',
      '`',
      '<<: *a\n',
      'key: &a [*a]\n',
    ];
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...inserts), hostileString) }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('deep' as const), at: fc.nat(), depth: fc.integer({ min: 100, max: 3_000 }) }),
    );
    fc.assert(
      fc.property(sourceIndex, fc.array(edit, { minLength: 1, maxLength: 3 }), (i, edits) => {
        const source = SOURCES[i] as Source;
        let text = source.text;
        for (const e of edits) {
          const at = e.at % (text.length + 1);
          if (e.kind === 'insert') text = text.slice(0, at) + e.text + text.slice(at);
          else if (e.kind === 'delete') text = text.slice(0, at) + text.slice(at + e.length);
          else if (e.kind === 'truncate') text = text.slice(0, at);
          else text = `${text.slice(0, at)}${nestedText(e.depth, at % 2 === 0)}${text.slice(at)}`;
        }
        load(source, text);
      }),
      { numRuns: fuzzRuns(150) },
    );
  });

  it.each([
    [
      'an alias bomb',
      'a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n' +
        'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n',
      /aliases/,
    ],
    ['nesting 20 000 deep', `logging: ${nestedText(20_000, false)}\n`, /nests too deeply/],
    [
      'a __proto__ key (must not set values through the prototype)',
      'logging:\n  __proto__: { level: debug }\nbot: {}\nrisk: {}\n',
      /unknown key/,
    ],
  ])('%s is a ConfigError naming the problem', (_name, text, message) => {
    const source = SOURCES[0] as Source;
    const outcome = load(source, text);
    expect(outcome).toBeInstanceOf(ConfigError);
    expect((outcome as ConfigError).problems.map((p) => p.message).join('\n')).toMatch(message);
  });
});

describe('tradebot config check on bad files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-config-fuzz-'));
  const simText = readFileSync(FILES[0] as string, 'utf8');
  const cases: [string, string][] = [
    ['unknown key', simText.replace('  startingBalance:', '  startingBalanse:')],
    ['wrong type', simText.replace('rateLimitPerSecond: 100', 'rateLimitPerSecond: "lots"')],
    ['an alias bomb', 'a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n'],
    ['deep nesting', `logging: ${nestedText(20_000, true)}\n`],
  ];

  const run = (file: string) =>
    new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [path.join(ROOT, 'bin', 'tradebot.js'), 'config', 'check', file],
        { cwd: ROOT, timeout: 30_000 },
        (error, stdout, stderr) => {
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
        },
      );
    });

  it('exits 2 with every problem on stderr and no stack trace', async () => {
    const results = await Promise.all(
      cases.map(async ([name, text]) => {
        const file = path.join(dir, `${name.replace(/\W+/g, '-')}.yaml`);
        writeFileSync(file, text);
        return { name, ...(await run(file)) };
      }),
    );
    for (const result of results) {
      expect(result.code, `${result.name}: ${result.stderr}`).toBe(2);
      expect(result.stderr, result.name).toContain('[CONFIG_INVALID]');
      expect(result.stderr, result.name).not.toMatch(/^\s+at /m);
      expect(result.stderr, result.name).not.toMatch(/unexpected error/);
      expect(result.stdout, result.name).toBe('');
    }
  });
});

/*
 * The backtest's own files: config/backtest.yaml (the config schema plus the `backtest` section) and the
 * shipped sweep grid (backtest/data/market-maker-grid.yaml, checked against the market maker's params as
 * `tradebot sweep` does before any run). The same rule: a valid file or a ConfigError whose every problem
 * names its field and the fix, never another exception; the commands exit 2 without a stack trace.
 */
describe('backtest config and sweep grid under mutation', () => {
  const isTradebotError = (error: unknown): error is Error & { code: string } =>
    error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
  const backtestFile = path.join(ROOT, 'config', 'backtest.yaml');
  const gridFile = path.join(ROOT, 'backtest', 'data', 'market-maker-grid.yaml');
  const backtestText = readFileSync(backtestFile, 'utf8');
  const gridText = readFileSync(gridFile, 'utf8');
  const backtestSource: Source = { file: backtestFile, text: backtestText, tree: parse(backtestText) as Json, env: envFor(backtestText) };
  const gridTree = parse(gridText) as Json;

  /** Checks a thrown value is a ConfigError whose problems each name a field (or the file as a whole) and a fix. */
  function expectConfigError(error: unknown, wholeFile: RegExp): ConfigError {
    if (!(error instanceof ConfigError))
      throw new Error(`not a ConfigError: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, { cause: error });
    expect(error.problems.length).toBeGreaterThan(0);
    for (const problem of error.problems) {
      const where = `${problem.path || '(file)'}: ${problem.message}`;
      expect(problem.message.trim().length, where).toBeGreaterThan(0);
      expect(problem.message, where).not.toMatch(GENERIC);
      expect(problem.message, where).not.toMatch(/\n\s+at /);
      if (problem.path === '') expect(problem.message, where).toMatch(wholeFile);
    }
    return error;
  }

  const loadBacktest = async (text: string): Promise<'valid' | 'invalid'> => {
    const { backtestConfigSchema } = await import('../../backtest/config.ts');
    try {
      parseConfigText(text, backtestConfigSchema, { env: backtestSource.env, file: backtestFile });
      return 'valid';
    } catch (error) {
      expectConfigError(error, /YAML|mapping|cannot read|nests too deeply|aliases/);
      return 'invalid';
    }
  };

  const loadGridAndCheck = async (text: string): Promise<'valid' | 'invalid'> => {
    const { parseGrid } = await import('../../backtest/sweep/grid.ts');
    const { expandGrid, mergeParams } = await import('../../backtest/sweep/expand.ts');
    const { checkSweepParams } = await import('../../backtest/sweep/check-params.ts');
    const { default: marketMaker } = await import('../../strategies/market-maker.ts');
    try {
      const grid = parseGrid(text, gridFile);
      const base = { symbols: ['RAIN-NYC-2026-12-01'] };
      // as tradebot sweep checks a grid (every run; here the first 16, enough to meet every value)
      checkSweepParams(
        marketMaker,
        grid,
        expandGrid(grid)
          .slice(0, 16)
          .map((combo) => mergeParams(base, combo)),
        gridFile,
      );
      return 'valid';
    } catch (error) {
      // a grid too large to run is refused with its shape and the fix (not a field problem)
      if (isTradebotError(error) && error.code === 'SWEEP_GRID_TOO_LARGE') {
        expect(error.message).toMatch(/trim the value lists/);
        return 'invalid';
      }
      expectConfigError(error, /YAML|mapping|empty|more problems|nests too deeply|aliases/);
      return 'invalid';
    }
  };

  it('the files load as they are', async () => {
    expect(await loadBacktest(backtestText)).toBe('valid');
    expect(await loadGridAndCheck(gridText)).toBe('valid');
  });

  it('mutated trees and broken text load, or fail with problems that name the field and the fix', async () => {
    const outcomes = { valid: 0, invalid: 0 };
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (grid, mutations) => {
        const tree = applyMutations(grid ? gridTree : backtestSource.tree, mutations);
        let text: string;
        try {
          text = stringify(tree, { aliasDuplicateObjects: false, lineWidth: 0 });
        } catch {
          return;
        }
        outcomes[await (grid ? loadGridAndCheck(text) : loadBacktest(text))] += 1;
      }),
      { numRuns: fuzzRuns(150) },
    );
    expect(outcomes.invalid).toBeGreaterThan(50);
    const inserts = [':', '\t', '[', '{', '"', '&a ', '*nope', '!!binary ', '- ', '\n  ', '#', '<<: *a\n'];
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.nat(), fc.oneof(fc.constantFrom(...inserts), hostileString), async (grid, at, insert) => {
        const text = grid ? gridText : backtestText;
        const i = at % (text.length + 1);
        const broken = text.slice(0, i) + insert + text.slice(i);
        await (grid ? loadGridAndCheck(broken) : loadBacktest(broken));
      }),
      { numRuns: fuzzRuns(100) },
    );
  }, 300_000);

  it('tradebot backtest and tradebot sweep exit 2 on bad files, naming the field, without a stack trace', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-backtest-fuzz-'));
    const badConfig = path.join(dir, 'backtest.yaml');
    writeFileSync(
      badConfig,
      backtestText
        .replace('latency: { insertMs: 50,', 'latency: { insertMs: -5,')
        .replace('metricsIntervalMs: 60000', 'metricsIntervalMs: soon'),
    );
    const badGrid = path.join(dir, 'grid.yaml');
    writeFileSync(badGrid, 'halfSpread: "0.01"\nquoteQty: [2, "lots"]\n');
    const cli = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [path.join(ROOT, 'bin', 'tradebot.js'), ...args],
          { cwd: ROOT, timeout: 60_000 },
          (error, _stdout, stderr) => {
            resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stderr });
          },
        );
      });
    const [backtest, sweep] = await Promise.all([
      cli(['backtest', '--data', 'backtest/data/sample.jsonl', '--config', badConfig, '--out', path.join(dir, 'out')]),
      cli([
        'sweep',
        '--strategy',
        'market-maker',
        '--data',
        'backtest/data/sample.jsonl',
        '--grid',
        badGrid,
        '--out',
        path.join(dir, 'sweep'),
      ]),
    ]);
    expect(backtest.code, backtest.stderr).toBe(2);
    expect(backtest.stderr).toContain('backtest.latency.insertMs');
    expect(backtest.stderr).toContain('backtest.metricsIntervalMs');
    expect(sweep.code, sweep.stderr).toBe(2);
    expect(sweep.stderr).toContain('halfSpread: expected a list of values');
    for (const result of [backtest, sweep]) {
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(result.stderr).not.toMatch(/unexpected error/);
    }
  }, 120_000);
});
