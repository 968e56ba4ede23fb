/**
 * Strategy plugins outside tradebot's folder (src/engine/strategy/plugin-import.ts through loadStrategy): a
 * plugin in a temporary folder loads whatever that folder's package.json says (`.ts` with none, `.ts` beside
 * `"type": "commonjs"`, `.mts`, `.js` beside `"type": "module"`, a CommonJS `.js`), its own helper modules are
 * bundled, and the tradebot it imports is the engine's own copy: the Decimal it gets is src/domain/decimal.ts's
 * class and its `decimal()` params validate to engine Decimals. The plugins import tradebot by the absolute
 * path of src/strategy.ts (an installed project writes `tradebot/strategy`). A syntax error is
 * STRATEGY_COMPILE_FAILED naming the file and line; a missing file is STRATEGY_NOT_FOUND.
 *
 * A CommonJS plugin here requires its own helper and an installed package (zod, through a node_modules link),
 * not tradebot: `require()` of tradebot's TypeScript sources runs in Node's own loader, which cannot read
 * TypeScript under vitest (an installed tradebot is compiled JavaScript, which `require` can load).
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/index.ts';
import { Decimal } from '../../../src/domain/decimal.ts';
import { isTradebotError } from '../../../src/errors.ts';
import { loadStrategy, validateParams } from '../../../src/engine/strategy/loader.ts';
import { importPlugin, isTradebotFile } from '../../../src/engine/strategy/plugin-import.ts';

/** tradebot's plugin entry, by absolute path (what `tradebot/strategy` resolves to in a clone). */
const STRATEGY_ENTRY = fileURLToPath(new URL('../../../src/strategy.ts', import.meta.url));
const REPO_NODE_MODULES = fileURLToPath(new URL('../../../node_modules/', import.meta.url));
const TRADEBOT = JSON.stringify(STRATEGY_ENTRY);

/** A fresh folder outside the repository holding `files` (path -> text); returns its path. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-plugin-test-'));
  for (const [name, text] of Object.entries(files)) {
    const target = path.join(dir, ...name.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return dir;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** A TypeScript plugin (types, an interface, a relative helper) on tradebot's entry; `named` re-exports its Decimal. */
function tsPlugin(name: string, helperImport = './lib/scale.ts'): string {
  return [
    `import { defineStrategy, decimal, z, Decimal } from ${TRADEBOT};`,
    `import { scale } from '${helperImport}';`,
    'interface Knobs { readonly factor: number }',
    'const knobs: Knobs = { factor: 3 };',
    'export const DecimalSeen: typeof Decimal = Decimal;',
    'export default defineStrategy({',
    `  name: '${name}',`,
    '  params: z.strictObject({ symbol: z.string(), edge: decimal({ min: "0" }).prefault("0.01"), ratio: z.number().default(1) }),',
    '  symbols: (p: { symbol: string; ratio: number }) => [p.symbol, String(scale(p.ratio, knobs.factor))],',
    '});',
    '',
  ].join('\n');
}

const TS_HELPER = 'export function scale(x: number, by: number): number {\n  return x * by;\n}\n';

/** Checks that `strategy` is usable by the engine: engine Decimals from its decimal() params, its z.number() and helper work. */
function expectUsable(strategy: Awaited<ReturnType<typeof loadStrategy>>, name: string): void {
  expect(strategy.name).toBe(name);
  const params = validateParams(strategy, { symbol: 'RAIN', edge: '0.125', ratio: '0.5' }, 'plugin.yaml') as {
    edge: unknown;
    ratio: unknown;
  };
  expect(params.edge).toBeInstanceOf(Decimal);
  expect((params.edge as Decimal).equals(new Decimal('0.125'))).toBe(true);
  expect(params.ratio).toBe(0.5);
  // the helper module was bundled with the plugin: 0.5 * 3
  expect(strategy.symbols?.(params)).toEqual(['RAIN', '1.5']);
  const error = (() => {
    try {
      validateParams(strategy, { symbol: 'RAIN', edge: '-1' }, 'plugin.yaml');
    } catch (caught) {
      return caught;
    }
    return undefined;
  })();
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).problems.map((p) => p.path)).toEqual(['bot.params.edge']);
}

describe('plugins outside the repository', () => {
  it('the temporary plugin folders are not tradebot files, the built-in strategies are', () => {
    const dir = project({ 'p.ts': '' });
    expect(isTradebotFile(path.join(dir, 'p.ts'))).toBe(false);
    expect(isTradebotFile(STRATEGY_ENTRY)).toBe(true);
    expect(isTradebotFile(path.join(REPO_NODE_MODULES, 'zod', 'package.json'))).toBe(false);
  });

  it("a .ts plugin in a folder with no package.json, sharing the engine's Decimal", async () => {
    const dir = project({ 'strategies/fade.ts': tsPlugin('fade'), 'strategies/lib/scale.ts': TS_HELPER });
    const file = path.join(dir, 'strategies', 'fade.ts');
    expectUsable(await loadStrategy(file), 'fade');
    const namespace = await importPlugin(file);
    expect(namespace['DecimalSeen']).toBe(Decimal);
  });

  it('a .ts plugin beside a package.json with "type": "commonjs" (what npm init -y writes)', async () => {
    const dir = project({
      'package.json': '{\n  "name": "quant",\n  "type": "commonjs"\n}\n',
      'fade.ts': tsPlugin('fade-cjs-folder'),
      'lib/scale.ts': TS_HELPER,
    });
    const file = path.join(dir, 'fade.ts');
    expectUsable(await loadStrategy(file), 'fade-cjs-folder');
    expect((await importPlugin(file))['DecimalSeen']).toBe(Decimal);
  });

  it('a .mts plugin, by a path relative to the cwd given', async () => {
    const dir = project({
      'package.json': '{"type":"commonjs"}',
      'fade.mts': tsPlugin('fade-mts', './lib/scale.mts'),
      'lib/scale.mts': TS_HELPER,
    });
    expectUsable(await loadStrategy('./fade.mts', dir), 'fade-mts');
    expect((await importPlugin(path.join(dir, 'fade.mts')))['DecimalSeen']).toBe(Decimal);
  });

  it('a .js ES module beside "type": "module", with a .js helper of its own', async () => {
    const plugin = [
      `import { defineStrategy, decimal, z, Decimal } from ${TRADEBOT};`,
      "import { scale } from './lib/scale.js';",
      'export const DecimalSeen = Decimal;',
      'export default defineStrategy({',
      "  name: 'fade-esm-js',",
      '  params: z.strictObject({ symbol: z.string(), edge: decimal({ min: "0" }).prefault("0.01"), ratio: z.number().default(1) }),',
      '  symbols: (p) => [p.symbol, String(scale(p.ratio, 3))],',
      '});',
      '',
    ].join('\n');
    const dir = project({
      'package.json': '{"type":"module"}',
      'fade.js': plugin,
      'lib/scale.js': 'export const scale = (x, by) => x * by;\n',
    });
    const file = path.join(dir, 'fade.js');
    expectUsable(await loadStrategy(file), 'fade-esm-js');
    expect((await importPlugin(file))['DecimalSeen']).toBe(Decimal);
  });

  it('a CommonJS .js plugin: module.exports is the definition; its helper is bundled, a required package stays installed', async () => {
    const plugin = [
      "'use strict';",
      "const { z } = require('zod');",
      "const { scale } = require('./lib/scale.js');",
      'module.exports = {',
      "  name: 'fade-commonjs',",
      '  params: z.strictObject({ symbol: z.string(), ratio: z.number().default(1) }),',
      '  symbols: (p) => [p.symbol, String(scale(p.ratio, 3))],',
      '  zodSeen: z,',
      '};',
      '',
    ].join('\n');
    const dir = project({
      'package.json': '{"type":"commonjs"}',
      'fade.js': plugin,
      'lib/scale.js': 'exports.scale = (x, by) => x * by;\n',
    });
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(path.join(REPO_NODE_MODULES, 'zod'), path.join(dir, 'node_modules', 'zod'), 'dir');
    const strategy = await loadStrategy(path.join(dir, 'fade.js'));
    expect(strategy.name).toBe('fade-commonjs');
    const params = validateParams(strategy, { symbol: 'RAIN', ratio: '0.5' }, 'plugin.yaml');
    expect(params).toEqual({ symbol: 'RAIN', ratio: 0.5 });
    expect(strategy.symbols?.(params)).toEqual(['RAIN', '1.5']);
    // zod was not bundled: the plugin's require() returned Node's one loaded copy of the installed package
    const nodeRequire = createRequire(path.join(dir, 'fade.js'));
    expect((strategy as unknown as { zodSeen: unknown }).zodSeen).toBe((nodeRequire('zod') as { z: unknown }).z);
  });

  it('a syntax error is STRATEGY_COMPILE_FAILED naming the file and the line', async () => {
    const dir = project({
      'broken.ts':
        `import { defineStrategy, z } from ${TRADEBOT};\n\n` + "export default defineStrategy({ name: 'broken', params: z.object({}) );\n",
    });
    const file = path.join(dir, 'broken.ts');
    const error = await failure(loadStrategy(file));
    expect(isTradebotError(error) && error.code).toBe('STRATEGY_COMPILE_FAILED');
    expect(isTradebotError(error) && error.kind).toBe('config');
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/broken\.ts:3:\d+/);
  });

  it('a plugin that throws while loading is STRATEGY_LOAD_FAILED naming the file and the error, not an unexpected error', async () => {
    const dir = project({
      'throws.ts':
        `import { defineStrategy, z } from ${TRADEBOT};\n` +
        "if (z) throw new Error('no market data key set');\n" +
        "export default defineStrategy({ name: 'throws', params: z.object({}) });\n",
    });
    const file = path.join(dir, 'throws.ts');
    const error = await failure(loadStrategy(file));
    expect(isTradebotError(error) && error.code).toBe('STRATEGY_LOAD_FAILED');
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain('no market data key set');
  });

  it('a syntax error in a helper names the helper and its line', async () => {
    const dir = project({
      'fade.ts': tsPlugin('fade-broken-helper'),
      'lib/scale.ts': 'export function scale(x: number, by: number): number {\n  return x * by\n  ]\n}\n',
    });
    const error = await failure(loadStrategy(path.join(dir, 'fade.ts')));
    expect(isTradebotError(error) && error.code).toBe('STRATEGY_COMPILE_FAILED');
    expect((error as Error).message).toMatch(/lib[\\/]scale\.ts:3:\d+/);
  });

  it('a relative import that does not exist is STRATEGY_COMPILE_FAILED naming what was imported', async () => {
    const dir = project({ 'fade.ts': tsPlugin('fade-no-helper', './lib/missing.ts') });
    const error = await failure(loadStrategy(path.join(dir, 'fade.ts')));
    expect(isTradebotError(error) && error.code).toBe('STRATEGY_COMPILE_FAILED');
    expect((error as Error).message).toContain('./lib/missing.ts');
    expect((error as Error).message).toMatch(/fade\.ts:2:\d+/);
  });

  it('a missing plugin file is STRATEGY_NOT_FOUND naming the path', async () => {
    const dir = project({});
    const missing = path.join(dir, 'strategies', 'nowhere.ts');
    const error = await failure(loadStrategy(missing));
    expect(isTradebotError(error) && error.code).toBe('STRATEGY_NOT_FOUND');
    expect((error as Error).message).toContain(missing);
    const relative = await failure(loadStrategy('strategies/nowhere.ts', dir));
    expect(isTradebotError(relative) && relative.code).toBe('STRATEGY_NOT_FOUND');
    expect((relative as Error).message).toContain(missing);
  });

  it("an error thrown by plugin code points at the line in the plugin's own file", async () => {
    const plugin = [
      `import { defineStrategy, z } from ${TRADEBOT};`,
      'export function explode(): never {',
      "  throw new Error('plugin bug');",
      '}',
      "export default defineStrategy({ name: 'exploder', params: z.object({}) });",
      '',
    ].join('\n');
    const dir = project({ 'exploder.ts': plugin });
    const namespace = await importPlugin(path.join(dir, 'exploder.ts'));
    let stack = '';
    try {
      (namespace['explode'] as () => never)();
    } catch (error) {
      stack = (error as Error).stack ?? '';
    }
    expect(stack).toContain('plugin bug');
    expect(stack).toMatch(/exploder\.ts:3:\d+/);
  });
});
