// `npm run build` (run by `prepack`): compiles src/, backtest/ and strategies/ to dist/ with tsc
// (tsconfig.build.json: JavaScript plus .d.ts types, relative `.ts` imports rewritten to `.js`), then rewrites
// the same specifiers in the emitted .d.ts files, which tsc leaves as written, so a quant's TypeScript
// resolves them without allowImportingTsExtensions. The installed package runs from dist/ alone.
//
// Then esbuild bundles the compiled JavaScript in place: every module a process loads by name or URL (the CLI,
// `tradebot/strategy`, `tradebot/testing`, the built-in strategies, the sweep worker, the report writer; see
// entryPoints) is rewritten as an entry that imports shared chunks (dist/chunks/), so a process
// loads each module once, whichever entry reached it (a plugin's `tradebot/strategy` and the engine share
// one Decimal, one zod). rxjs, zod and yaml are bundled in too (BUNDLED_PACKAGES); every other package stays
// an import. Before, a command resolved and compiled ~240 modules of ours plus rxjs's CommonJS barrel (~300
// files), zod (~100) and yaml (~60): a backtest of the 873-trade sample took ~1.2-1.3 s whole, ~0.9 s bundled.
// The tsc output of modules that are not entries stays in dist/ unused; the .d.ts files keep importing the
// packages, whose types describe the bundled code.
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import process from 'node:process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')],
  { stdio: 'inherit' },
);
if (tsc.status !== 0) {
  process.stderr.write('build: tsc failed\n');
  process.exit(tsc.status ?? 1);
}

const RELATIVE_TS = /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+?)\.(m?)ts(['"])/g;
let rewritten = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) walk(file);
    else if (name.endsWith('.d.ts')) {
      const text = readFileSync(file, 'utf8');
      const next = text.replace(RELATIVE_TS, (_all, head, spec, m, quote) => `${head}${spec}.${m}js${quote}`);
      if (next !== text) {
        writeFileSync(file, next);
        rewritten += 1;
      }
    }
  }
}
walk(dist);

/**
 * The modules a process loads by name or URL: the CLI, the package's public entries, the built-in strategies,
 * and the sweep worker and the report writer, which tradebot loads by their URL (src/package/paths.ts). Every
 * one is an entry of one bundled build, so they share chunks: one instance of each module in a process. Not the
 * tape worker: backtest/tape/worker-bundle.ts bundles tsc's tape-worker.js into a CommonJS script at run time
 * (a thread of its own, sharing nothing), which an entry's `import.meta` banner would break.
 */
function entryPoints() {
  const strategies = readdirSync(path.join(dist, 'strategies'))
    .filter((name) => name.endsWith('.js'))
    .map((name) => path.join('strategies', name));
  return [
    'src/cli/main.js',
    'src/strategy.js',
    'src/testing/index.js',
    'backtest/sweep/worker.js',
    'backtest/sweep/backtest-job.js',
    'backtest/report/write-report.js',
    ...strategies,
  ].map((file) => path.join(dist, file));
}

/** Packages bundled in (see the header); every other package stays an import Node resolves. */
const BUNDLED_PACKAGES = ['rxjs', 'zod', 'yaml'];

/** Bare imports of packages other than BUNDLED_PACKAGES (and Node's modules) stay imports. */
function packagesExternal() {
  return {
    name: 'tradebot-packages-external',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        return BUNDLED_PACKAGES.includes(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

const entries = entryPoints();
const bundle = await build({
  entryPoints: entries,
  outbase: dist,
  outdir: dist,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [packagesExternal()],
  // a CommonJS package's require() of Node's own modules, in an ES module
  banner: { js: "import { createRequire as __tradebotRequire } from 'node:module'; const require = __tradebotRequire(import.meta.url);" },
  metafile: true,
  // less source for V8 to scan at start (2.9 -> 2.2 MB of chunks); names stay, so stack traces still name functions
  minifyWhitespace: true,
  logLevel: 'warning',
});
const outputs = Object.keys(bundle.metafile.outputs).length;

// The tape worker is bundled again at run time, into a CommonJS script; when that fails, a backtest still runs,
// parsing its tape on the replay thread, only slower. So the build bundles it here with the compiled
// worker-bundle.js itself (tsc's, not an entry) and refuses any warning (an ES-module-only construct warns).
const { bundleTapeWorker } = await import(pathToFileURL(path.join(dist, 'backtest', 'tape', 'worker-bundle.js')).href);
const worker = await bundleTapeWorker();
if (worker.code === undefined || worker.warnings.length > 0) {
  process.stderr.write(`build: the tape worker does not bundle: ${worker.warnings[0] ?? 'esbuild produced no script'}\n`);
  process.exit(1);
}
process.stdout.write(
  `build: dist/ written (${rewritten} declaration files with rewritten imports; ${entries.length} entries bundled ` +
    `into ${outputs} files)\n`,
);
