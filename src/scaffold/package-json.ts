/**
 * The package.json of a strategy project made by `tradebot init`: a new one, or what the folder already has
 * (from `npm init -y` and `npm install tradebot`) with what the project needs added. Nothing the author wrote
 * is replaced: a field that is there is kept, except two placeholders npm writes itself, `"type":
 * "commonjs"` (the project's TypeScript is ES modules) and the `test` script that only fails ("no test
 * specified"). Every change is listed, so `init` can say what it did.
 */
import { TradebotError } from '../errors.ts';

export interface PackageJsonPlan {
  /** The new text (2-space JSON with a final newline), or undefined when nothing changes. */
  readonly text: string | undefined;
  /** One line per change, e.g. `scripts.test: vitest run`. */
  readonly changes: readonly string[];
}

export interface ProjectVersions {
  /** The running tradebot's version (dependency `^<version>` when the project has none). */
  readonly tradebot: string;
  /** Dev dependencies the project's tests and type-check need, name -> version range. */
  readonly devDependencies: Readonly<Record<string, string>>;
}

const SCRIPTS: Readonly<Record<string, string>> = {
  test: 'vitest run',
  typecheck: 'tsc --noEmit',
  backtest: 'tradebot backtest --data data/sample.jsonl --out out/backtest',
  start: 'tradebot run',
};

const NPM_PLACEHOLDER_TEST = /no test specified/;

type Json = Record<string, unknown>;

function record(value: unknown, where: string): Json {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TradebotError(
      'INIT_BAD_PACKAGE_JSON',
      `package.json: ${where} must be an object; fix it by hand, then run tradebot init again`,
      { kind: 'config' },
    );
  }
  return { ...(value as Json) };
}

/** Merges what a strategy project needs into `existing` (the folder's package.json text, or undefined). */
export function planPackageJson(existing: string | undefined, name: string, versions: ProjectVersions): PackageJsonPlan {
  let pkg: Json;
  try {
    pkg = existing === undefined ? {} : record(JSON.parse(existing) as unknown, 'the file');
  } catch (error) {
    if (error instanceof TradebotError) throw error;
    throw new TradebotError(
      'INIT_BAD_PACKAGE_JSON',
      `package.json is not valid JSON (${(error as Error).message}); fix it by hand, then run tradebot init again`,
      { kind: 'config' },
    );
  }
  const changes: string[] = [];
  const set = (target: Json, key: string, value: unknown, label: string) => {
    target[key] = value;
    changes.push(`${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  };
  if (pkg['name'] === undefined) set(pkg, 'name', name, 'name');
  if (pkg['version'] === undefined) set(pkg, 'version', '0.1.0', 'version');
  if (pkg['private'] === undefined) set(pkg, 'private', true, 'private');
  if (pkg['type'] === undefined || pkg['type'] === 'commonjs') set(pkg, 'type', 'module', 'type');
  const scripts = record(pkg['scripts'], 'scripts');
  for (const [key, command] of Object.entries(SCRIPTS)) {
    const current = scripts[key];
    if (current === undefined || (key === 'test' && typeof current === 'string' && NPM_PLACEHOLDER_TEST.test(current)))
      set(scripts, key, command, `scripts.${key}`);
  }
  pkg['scripts'] = scripts;
  const dependencies = record(pkg['dependencies'], 'dependencies');
  if (dependencies['tradebot'] === undefined) set(dependencies, 'tradebot', `^${versions.tradebot}`, 'dependencies.tradebot');
  pkg['dependencies'] = dependencies;
  const devDependencies = record(pkg['devDependencies'], 'devDependencies');
  for (const [dep, range] of Object.entries(versions.devDependencies)) {
    if (devDependencies[dep] === undefined && dependencies[dep] === undefined) set(devDependencies, dep, range, `devDependencies.${dep}`);
  }
  pkg['devDependencies'] = devDependencies;
  return { text: changes.length === 0 ? undefined : `${JSON.stringify(pkg, null, 2)}\n`, changes };
}
