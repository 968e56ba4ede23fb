// `npm run build` (run by `prepack`): compiles src/, backtest/ and strategies/ to dist/ with tsc
// (tsconfig.build.json: JavaScript plus .d.ts types, relative `.ts` imports rewritten to `.js`), then rewrites
// the same specifiers in the emitted .d.ts files, which tsc leaves as written, so a quant's TypeScript
// resolves them without allowImportingTsExtensions. The installed package runs from dist/ alone.
//
// Then it vendors the third-party modules every command loads (VENDORED): each is bundled by esbuild into
// one ES module file, dist/vendor/<name>.js, and the compiled JavaScript imports that file instead of the
// package. Node resolves `rxjs` to its CommonJS build (~300 files behind one barrel), `zod` to ~100 ES
// modules and `yaml` to ~60 CommonJS files; loading the three took ~280 ms of every command's
// start-up (one file each: ~110 ms). The same versions' code, so nothing behaves differently; the .d.ts
// files keep importing the packages, whose types describe it.
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
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

/** Packages bundled into dist/vendor/ (see the header), from the builds Node itself would load. */
const VENDORED = ['rxjs', 'zod', 'yaml'];

/** The names a package exports to an ES module import in Node, as an export list. */
async function exportedNames(name) {
  const module = await import(name);
  return Object.keys(module)
    .filter((key) => key !== 'default' && key !== 'module.exports')
    .join(', ');
}
const vendorDir = path.join(dist, 'vendor');
for (const name of VENDORED) {
  await build({
    // named re-exports (what Node's import of the package exposes): `export *` of a CommonJS build exports nothing
    stdin: { contents: `export { ${await exportedNames(name)} } from '${name}';`, resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // a CommonJS package's require() of Node's own modules, in an ES module
    banner: { js: "import { createRequire as __vendorRequire } from 'node:module'; const require = __vendorRequire(import.meta.url);" },
    outfile: path.join(vendorDir, `${name}.js`),
    logLevel: 'warning',
  });
}
const BARE_VENDORED = new RegExp(`(\\bfrom\\s*['"])(${VENDORED.join('|')})(['"])`, 'g');
let vendoredImports = 0;
function pointAtVendor(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (file === vendorDir) continue;
    if (statSync(file).isDirectory()) pointAtVendor(file);
    else if (name.endsWith('.js')) {
      const text = readFileSync(file, 'utf8');
      const next = text.replace(BARE_VENDORED, (_all, head, pkg, quote) => {
        const relative = path
          .relative(path.dirname(file), path.join(vendorDir, `${pkg}.js`))
          .split(path.sep)
          .join('/');
        return `${head}${relative.startsWith('.') ? relative : `./${relative}`}${quote}`;
      });
      if (next !== text) {
        writeFileSync(file, next);
        vendoredImports += 1;
      }
    }
  }
}
pointAtVendor(dist);
process.stdout.write(
  `build: dist/ written (${rewritten} declaration files with rewritten imports; ${VENDORED.join(', ')} vendored, ` +
    `imported by ${vendoredImports} modules)\n`,
);
