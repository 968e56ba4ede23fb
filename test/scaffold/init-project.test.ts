/**
 * `tradebot init [dir]` (src/scaffold/init-project.ts, through runCli in-process): writes every file of a
 * strategy project; never overwrites one (a second run, or a folder with an edited file, keeps it byte for
 * byte and lists it as kept); merges into an `npm init -y` package.json; the generated configs load with the
 * repository's config loaders, their `bot.strategy` resolving to the project's strategies/example.ts whatever
 * the working folder, and `config check` of them loads the example and validates its params when the project
 * resolves `tradebot/strategy` (here a node_modules/tradebot whose src/ links to this repository's sources).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadBacktestConfig } from '../../backtest/config.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { loadConfig } from '../../src/config/index.ts';
import { initProject } from '../../src/scaffold/init-project.ts';
import { captureOutput } from '../cli/helpers/output.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const PROJECT_FILES = [
  '.gitignore',
  'README.md',
  'config/backtest.yaml',
  'config/sim.yaml',
  'data/sample.jsonl',
  'package.json',
  'params/example.yaml',
  'strategies/example.ts',
  'test/example.test.ts',
  'tsconfig.json',
];

const EXAMPLE_PARAMS = { symbols: ['RAIN-NYC-2026-12-01'], halfSpread: '0.02', qty: '2', maxPosition: '10' };

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'tradebot-init-'));
}

function read(dir: string, file: string): string {
  return readFileSync(path.join(dir, ...file.split('/')), 'utf8');
}

/** Every file under `dir`, relative, with forward slashes, sorted. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .flatMap((name) =>
      statSync(path.join(dir, name)).isDirectory() ? filesUnder(path.join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`],
    )
    .sort();
}

/** A node_modules/tradebot in `project` resolving `tradebot/strategy` to this repository's src/strategy.ts. */
function linkTradebotSources(project: string): void {
  const pkg = path.join(project, 'node_modules', 'tradebot');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    path.join(pkg, 'package.json'),
    JSON.stringify({
      name: 'tradebot',
      type: 'module',
      exports: { './strategy': './src/strategy.ts', './testing': './src/testing/index.ts' },
    }),
  );
  symlinkSync(path.join(ROOT, 'src'), path.join(pkg, 'src'), 'dir');
}

afterEach(() => vi.restoreAllMocks());

describe('tradebot init', () => {
  it('writes every project file into a new folder and lists each one', async () => {
    const project = path.join(tempDir(), 'rain-desk');
    const io = captureOutput();
    expect(await runCli(['init', project])).toBe(0);
    expect(filesUnder(project)).toEqual(PROJECT_FILES);
    for (const file of PROJECT_FILES) expect(io.out()).toContain(`  wrote    ${file}\n`);
    expect(io.out()).toContain(`tradebot init: ${project}\n`);
    expect(io.out()).toContain(`  cd ${project}\n`);
    expect(io.out()).not.toContain('kept');

    // templates copied as they are, the sample tape byte for byte
    expect(read(project, 'strategies/example.ts')).toBe(read(ROOT, 'templates/init/strategies/example.ts'));
    expect(read(project, 'strategies/example.ts')).toContain("from 'tradebot/strategy'");
    expect(read(project, 'test/example.test.ts')).toBe(read(ROOT, 'templates/init/test/example.test.ts'));
    expect(read(project, '.gitignore')).toBe(read(ROOT, 'templates/init/gitignore'));
    expect(read(project, 'tsconfig.json')).toBe(read(ROOT, 'templates/init/tsconfig.json'));
    expect(
      readFileSync(path.join(project, 'data', 'sample.jsonl')).equals(readFileSync(path.join(ROOT, 'backtest', 'data', 'sample.jsonl'))),
    ).toBe(true);

    const pkg = JSON.parse(read(project, 'package.json')) as {
      name: string;
      type: string;
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(pkg.name).toBe('rain-desk');
    expect(pkg.type).toBe('module');
    expect(pkg.scripts['test']).toBe('vitest run');
    expect(pkg.dependencies['tradebot']).toBe(`^${(JSON.parse(read(ROOT, 'package.json')) as { version: string }).version}`);

    // the configs point at the example, with its params; the demo bot's comment is gone
    for (const config of ['config/sim.yaml', 'config/backtest.yaml']) {
      const text = read(project, config);
      expect(text).toMatch(/^ {2}strategy: \.\.\/strategies\/example\.ts$/m);
      expect(text).toContain('# The bot: strategies/example.ts (a path relative to this file)');
      expect(text).not.toContain('The demo bot');
    }
  });

  it("the configs load with the config loaders, bot.strategy resolving to the project's example from any working folder", async () => {
    const project = path.join(tempDir(), 'desk');
    initProject(project);
    const example = path.join(project, 'strategies', 'example.ts');
    expect(process.cwd()).not.toBe(project);
    const sim = loadConfig(path.join(project, 'config', 'sim.yaml'));
    expect(sim.bot.strategy).toBe(example);
    expect(sim.bot.params).toEqual(EXAMPLE_PARAMS);
    const backtest = loadBacktestConfig(path.join(project, 'config', 'backtest.yaml'));
    expect(backtest.bot.strategy).toBe(example);
    expect(backtest.bot.params).toEqual(EXAMPLE_PARAMS);
    // by a relative path too: still the config file's folder that counts
    const relative = path.relative(process.cwd(), path.join(project, 'config', 'sim.yaml'));
    expect(loadConfig(relative).bot.strategy).toBe(example);
  });

  it('config check of the generated configs loads the example and accepts its params', async () => {
    const project = path.join(tempDir(), 'desk');
    initProject(project);
    linkTradebotSources(project);
    for (const config of ['sim.yaml', 'backtest.yaml']) {
      const file = path.join(project, 'config', config);
      const io = captureOutput();
      expect(await runCli(['config', 'check', file]), io.err()).toBe(0);
      expect(io.out()).toBe(`${file}: ok (strategy example)\n`);
      vi.restoreAllMocks();
    }
  });

  it('running it again writes nothing: every file kept byte for byte and listed as kept', async () => {
    const project = path.join(tempDir(), 'desk');
    initProject(project);
    const before = new Map(PROJECT_FILES.map((file) => [file, readFileSync(path.join(project, file))]));
    const io = captureOutput();
    expect(await runCli(['init', project])).toBe(0);
    expect(io.out()).not.toContain('wrote');
    for (const file of PROJECT_FILES.filter((f) => f !== 'package.json'))
      expect(io.out()).toContain(`  kept     ${file} (it exists; not overwritten)\n`);
    expect(io.out()).not.toContain('package.json  ');
    for (const [file, bytes] of before) expect(readFileSync(path.join(project, file)).equals(bytes), file).toBe(true);
    expect(filesUnder(project)).toEqual(PROJECT_FILES);
  });

  it('into a folder with an edited file and an npm init -y package.json: file kept, the rest written, package.json merged', async () => {
    const project = tempDir();
    const mine = '// my own strategy, not the example\nexport default 42;\n';
    mkdirSync(path.join(project, 'strategies'));
    writeFileSync(path.join(project, 'strategies', 'example.ts'), mine);
    const npmInitJson = {
      name: 'quant',
      version: '1.0.0',
      main: 'index.js',
      scripts: { test: 'echo "Error: no test specified" && exit 1', lint: 'eslint .' },
      license: 'ISC',
      type: 'commonjs',
    };
    const npmInit = `${JSON.stringify(npmInitJson, null, 2)}\n`;
    writeFileSync(path.join(project, 'package.json'), npmInit);
    const io = captureOutput();
    expect(await runCli(['init', project])).toBe(0);
    expect(read(project, 'strategies/example.ts')).toBe(mine);
    expect(io.out()).toContain('  kept     strategies/example.ts (it exists; not overwritten)\n');
    expect(io.out()).not.toContain('wrote    strategies/example.ts');
    expect(io.out()).toContain('  wrote    test/example.test.ts\n');
    expect(io.out()).not.toContain('wrote    package.json');
    expect(io.out()).toContain('  package.json  type: module\n');
    expect(io.out()).toContain('  package.json  scripts.test: vitest run\n');
    expect(filesUnder(project)).toEqual(PROJECT_FILES);
    const pkg = JSON.parse(read(project, 'package.json')) as Record<string, unknown>;
    expect(pkg['name']).toBe('quant');
    expect(pkg['license']).toBe('ISC');
    expect(pkg['type']).toBe('module');
    expect(pkg['scripts']).toMatchObject({ test: 'vitest run', lint: 'eslint .' });
  });

  it('with no dir: the working folder, named after it', async () => {
    const project = path.join(tempDir(), 'Weather Book');
    mkdirSync(project);
    const cwd = process.cwd();
    const io = captureOutput();
    process.chdir(project);
    try {
      expect(await runCli(['init'])).toBe(0);
    } finally {
      process.chdir(cwd);
    }
    expect(io.out()).toContain('tradebot init: this folder\n');
    expect(io.out()).not.toContain('  cd ');
    expect(filesUnder(project)).toEqual(PROJECT_FILES);
    expect((JSON.parse(read(project, 'package.json')) as { name: string }).name).toBe('weather-book');
  });

  it('a package.json that is not JSON: exit 2 with INIT_BAD_PACKAGE_JSON, the file left as it is', async () => {
    const project = tempDir();
    writeFileSync(path.join(project, 'package.json'), '{ "name": "quant", }\n');
    const io = captureOutput();
    expect(await runCli(['init', project])).toBe(2);
    expect(io.err()).toContain('[INIT_BAD_PACKAGE_JSON]');
    expect(io.err()).toContain('package.json is not valid JSON');
    expect(read(project, 'package.json')).toBe('{ "name": "quant", }\n');
    // checked before anything is written: the folder holds only what was there
    expect(filesUnder(project)).toEqual(['package.json']);
  });
});
