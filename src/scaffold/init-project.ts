/**
 * `tradebot init [dir]`: makes a strategy project in `dir` (created when missing): the files of
 * project-files.ts and a package.json merged by package-json.ts. A file that exists is never overwritten:
 * it is kept and listed as kept, so init can run in a folder that has some of them (or run again).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageFile } from '../package/paths.ts';
import { planPackageJson, type ProjectVersions } from './package-json.ts';
import { projectFiles } from './project-files.ts';

export interface InitResult {
  readonly dir: string;
  /** Files written, relative to `dir`. */
  readonly written: readonly string[];
  /** Files that were there already and were left as they are. */
  readonly kept: readonly string[];
  /** What was added to package.json (empty when nothing was). */
  readonly packageJsonChanges: readonly string[];
}

/** The dev dependencies a project's tests and type-check need, at the versions tradebot is tested with. */
function projectVersions(): ProjectVersions {
  const own = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as {
    version: string;
    devDependencies?: Record<string, string>;
  };
  const dev = own.devDependencies ?? {};
  const range = (name: string, fallback: string) => `^${dev[name] ?? fallback}`;
  return {
    tradebot: own.version,
    devDependencies: {
      vitest: range('vitest', '4.1.12'),
      typescript: range('typescript', '6.0.3'),
      '@types/node': range('@types/node', '20.19.0'),
    },
  };
}

/** A package name from a folder name: lower case, letters, digits, dots, dashes and underscores. */
function packageNameOf(dir: string): string {
  const name = path
    .basename(path.resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name === '' ? 'strategies' : name;
}

export function initProject(dir: string): InitResult {
  mkdirSync(dir, { recursive: true });
  // package.json first: a folder whose package.json cannot be merged gets nothing written
  const packageJson = path.join(dir, 'package.json');
  const existing = existsSync(packageJson) ? readFileSync(packageJson, 'utf8') : undefined;
  const plan = planPackageJson(existing, packageNameOf(dir), projectVersions());
  const written: string[] = [];
  const kept: string[] = [];
  for (const file of projectFiles()) {
    const target = path.join(dir, ...file.path.split('/'));
    if (existsSync(target)) {
      kept.push(file.path);
      continue;
    }
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.text, { encoding: 'utf8', flag: 'wx' });
    written.push(file.path);
  }
  if (plan.text !== undefined) writeFileSync(packageJson, plan.text, 'utf8');
  if (existing === undefined) written.push('package.json');
  else if (plan.text === undefined) kept.push('package.json');
  return { dir, written, kept, packageJsonChanges: existing === undefined ? [] : plan.changes };
}
