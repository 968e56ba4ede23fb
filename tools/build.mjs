// `npm run build` (run by `prepack`): compiles src/, backtest/ and strategies/ to dist/ with tsc
// (tsconfig.build.json: JavaScript plus .d.ts types, relative `.ts` imports rewritten to `.js`), then rewrites
// the same specifiers in the emitted .d.ts files, which tsc leaves as written, so a quant's TypeScript
// resolves them without allowImportingTsExtensions. The installed package runs from dist/ alone.
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
process.stdout.write(`build: dist/ written (${rewritten} declaration files with rewritten imports)\n`);
