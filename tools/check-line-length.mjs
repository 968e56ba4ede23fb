// `npm run lint` (after eslint): fails when a code line is longer than 140 characters (issue #23). Prettier
// (printWidth 140) cannot break string literals, template literals or comments, so this catches what it leaves.
// Looks at every .ts, .mjs and .js file under the code folders (node_modules and generated output skipped),
// counts characters (Unicode code points, as an editor does), and lists each long line as `file:line: length`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const MAX = 140;
const FOLDERS = ['src', 'backtest', 'strategies', 'bench', 'test', 'tools', 'templates'];
const EXTENSIONS = ['.ts', '.mjs', '.js'];
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', 'backtest/data', 'backtest/out']);

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The code files under `dir` (relative to the repo root, `/`-separated), in a stable order. */
function codeFiles(dir) {
  const found = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (SKIPPED.has(entry.name) || SKIPPED.has(rel)) continue;
    if (entry.isDirectory()) found.push(...codeFiles(rel));
    else if (entry.isFile() && EXTENSIONS.some((ext) => entry.name.endsWith(ext))) found.push(rel);
  }
  return found.sort();
}

const long = [];
let files = 0;
for (const folder of FOLDERS.filter((f) => existsSync(path.join(root, f)))) {
  for (const file of codeFiles(folder)) {
    files++;
    readFileSync(path.join(root, file), 'utf8')
      .split(/\r?\n/)
      .forEach((line, i) => {
        const length = [...line].length;
        if (length > MAX) long.push(`${file}:${i + 1}: ${length} characters`);
      });
  }
}

if (long.length > 0) {
  process.stderr.write(
    `${long.join('\n')}\n${long.length} line(s) over ${MAX} characters: split the string (a concatenation, ` +
      'or a backslash at the end of a template literal line), shorten the test name, or rewrap the comment\n',
  );
  process.exitCode = 1;
} else {
  process.stdout.write(`line length: ${files} files, no line over ${MAX} characters\n`);
}
