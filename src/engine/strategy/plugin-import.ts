/**
 * Imports a strategy plugin file as an ES module whatever its folder says: `.ts`, `.mts`, `.js` or `.mjs`,
 * beside a package.json with `"type": "module"`, with `"type": "commonjs"` or with none. A plugin inside
 * tradebot's own folder (the built-in strategies, or one written in a clone of the repository) is imported
 * as it is, through the loader already running (tsx in a clone, plain Node when compiled). Any other file
 * is compiled by esbuild into one ES module: the plugin's own files are bundled into it, while tradebot's
 * files and every package under node_modules stay imports of the files the plugin's folder resolves them
 * to, so the plugin and the engine share one copy of `tradebot/strategy` (one Decimal, one zod). The result
 * is written to a temporary file, imported and removed; its inline source map points back at the plugin's
 * files, so a stack trace names the line the quant wrote.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { TradebotError } from '../../errors.ts';
import { PACKAGE_ROOT } from '../../package/paths.ts';

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/** True for a file that is tradebot's own (its sources or compiled tree) rather than a plugin author's. */
export function isTradebotFile(file: string): boolean {
  const relative = path.relative(PACKAGE_ROOT, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) && !relative.split(path.sep).includes('node_modules');
}

/** Keeps tradebot's files and installed packages out of the bundle, as imports of the resolved files. */
function externals(): Plugin {
  return {
    name: 'tradebot-plugin-externals',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData === 'resolving') return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'resolving',
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (resolved.external || !path.isAbsolute(resolved.path)) return { path: resolved.path, external: true };
        const shared = isTradebotFile(resolved.path) || resolved.path.includes(NODE_MODULES);
        if (!shared) return { path: resolved.path };
        // a require() stays a path for the createRequire banner; an import becomes a file: URL
        return { path: args.kind === 'require-call' ? resolved.path : pathToFileURL(resolved.path).href, external: true };
      });
    },
  };
}

async function compile(file: string): Promise<string> {
  const esbuild = await import('esbuild');
  try {
    const result = await esbuild.build({
      entryPoints: [file],
      absWorkingDir: path.dirname(file),
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'inline',
      logLevel: 'silent',
      plugins: [externals()],
      banner: {
        js:
          "import { createRequire as __tradebotCreateRequire } from 'node:module'; " +
          'const require = __tradebotCreateRequire(import.meta.url);',
      },
    });
    const code = result.outputFiles[0]?.text;
    if (code === undefined) throw new Error('esbuild produced no output');
    return code;
  } catch (error) {
    const failure = error as { errors?: readonly { text: string; location?: { file: string; line: number; column: number } | null }[] };
    const first = failure.errors?.[0];
    const where = first?.location ? ` (${first.location.file}:${first.location.line}:${first.location.column})` : '';
    const reason = first === undefined ? (error instanceof Error ? error.message : String(error)) : `${first.text}${where}`;
    throw new TradebotError('STRATEGY_COMPILE_FAILED', `cannot compile the strategy plugin ${file}: ${reason}`, {
      kind: 'config',
      cause: error,
    });
  }
}

/** Imports `url` (the plugin `file`, or what it was compiled to); what the plugin's own code throws is STRATEGY_LOAD_FAILED. */
async function loaded(file: string, url: string): Promise<Record<string, unknown>> {
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
    const reason = stack.split('\n').slice(0, 4).join('\n');
    throw new TradebotError('STRATEGY_LOAD_FAILED', `the strategy plugin ${file} failed to load: ${reason}`, {
      kind: 'config',
      cause: error,
    });
  }
}

/** Imports the plugin file `file` (an absolute path) and returns its module namespace. */
export async function importPlugin(file: string): Promise<Record<string, unknown>> {
  if (isTradebotFile(file)) return loaded(file, pathToFileURL(file).href);
  const code = await compile(file);
  process.setSourceMapsEnabled(true);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tradebot-plugin-'));
  const compiled = path.join(dir, `${path.basename(file).replace(/\.[^.]+$/, '')}.mjs`);
  try {
    await writeFile(compiled, code, 'utf8');
    return await loaded(file, pathToFileURL(compiled).href);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
