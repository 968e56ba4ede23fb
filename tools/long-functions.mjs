// `node tools/long-functions.mjs [--max N] [--json] [dir or file...]`: lists the functions longer than N lines
// (default 120, the project's limit) in the TypeScript files of src/, backtest/ and strategies/ (or those given),
// longest first. Functions are found with the TypeScript compiler's parser (declarations, methods,
// constructors, accessors, function expressions and arrow functions); a function's length is the lines its
// text spans, from its first token (after leading comments) to its last, its nested functions included. A
// function named by its declaration, variable, property or class member; an anonymous callback by the call it
// is passed to (`describe(...) callback`). Exit code 1 when any is found, so CI or a hook can run it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function parseArgs(argv) {
  const options = { max: 120, json: false, dirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--max') {
      options.max = Number(argv[++i]);
      if (!Number.isInteger(options.max) || options.max < 1) throw new Error('--max takes a whole number of lines, e.g. --max 120');
    } else if (arg === '--json') options.json = true;
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg} (options: --max N, --json)`);
    else options.dirs.push(arg);
  }
  if (options.dirs.length === 0) options.dirs = ['src', 'backtest', 'strategies'];
  return options;
}

function tsFiles(dir) {
  if (!statSync(dir).isDirectory()) return [dir];
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out.push(...tsFiles(file));
    else if (/\.(m|c)?ts$/.test(name) && !name.endsWith('.d.ts')) out.push(file);
  }
  return out.sort();
}

function isFunction(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node)
  );
}

function nameText(name, source) {
  return name === undefined ? undefined : name.getText(source);
}

/** A readable name: its own, the variable / property / member it is assigned to, or the call it is passed to. */
function functionName(node, source) {
  const own = node.name === undefined ? undefined : nameText(node.name, source);
  const owner = ts.isClassLike(node.parent) ? (node.parent.name?.getText(source) ?? '<class>') : undefined;
  if (ts.isConstructorDeclaration(node)) return `${owner ?? '<class>'}.constructor`;
  if (own !== undefined) return owner !== undefined ? `${owner}.${own}` : own;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    const holder = ts.isPropertyDeclaration(parent) && ts.isClassLike(parent.parent) ? parent.parent.name?.getText(source) : undefined;
    return holder === undefined ? nameText(parent.name, source) : `${holder}.${nameText(parent.name, source)}`;
  }
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    const callee = parent.expression.getText(source).replace(/\s+/g, ' ');
    return `${callee.length > 40 ? `${callee.slice(0, 37)}...` : callee}(...) callback`;
  }
  if (ts.isReturnStatement(parent)) {
    let outer = parent.parent;
    while (outer !== undefined && !isFunction(outer)) outer = outer.parent;
    return outer === undefined ? '<returned>' : `${functionName(outer, source)} (returned function)`;
  }
  return '<anonymous>';
}

function longFunctions(file, max) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const visit = (node) => {
    if (isFunction(node) && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      const lines = end - start + 1;
      if (lines > max) found.push({ file: path.relative(root, file), line: start, lines, name: functionName(node, source) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const found = options.dirs
    .flatMap((dir) => tsFiles(path.resolve(root, dir)))
    .flatMap((file) => longFunctions(file, options.max))
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
  if (options.json) process.stdout.write(`${JSON.stringify(found)}\n`);
  else {
    for (const f of found) process.stdout.write(`${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}\n`);
    process.stderr.write(`${found.length} function(s) over ${options.max} lines in ${options.dirs.join(', ')}\n`);
  }
  return found.length === 0 ? 0 : 1;
}

process.exitCode = main();
