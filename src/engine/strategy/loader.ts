/**
 * Loads a strategy plugin by name (`strategies/<name>.ts`) or by path, checks that its default export is
 * a `defineStrategy` definition, and validates its params (from YAML) against the plugin's schema. Every
 * params problem is reported at once, like config errors, under the file and YAML path the params came
 * from: `config/fade.yaml` / `bot.params.edge: ...` for a config file, `fade-params.yaml` / `edge: ...` for a
 * `--params` file.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../config/errors.ts';
import { BUILT_IN_STRATEGIES_DIR } from '../../package/paths.ts';
import { describeIssue } from '../../config/issues.ts';
import { TradebotError } from '../../errors.ts';
import { looksLikeStrategyPath } from './strategy-path.ts';
import type { AnyStrategy } from './define-strategy.ts';
import { importPlugin } from './plugin-import.ts';
import { numbersWhereExpected } from './yaml-numbers.ts';

export const STRATEGIES_DIR = BUILT_IN_STRATEGIES_DIR;

export function resolveStrategyPath(nameOrPath: string, cwd = process.cwd()): string {
  const looksLikePath = looksLikeStrategyPath(nameOrPath);
  const candidates = looksLikePath
    ? [path.resolve(cwd, nameOrPath)]
    : [path.join(STRATEGIES_DIR, `${nameOrPath}.ts`), path.join(STRATEGIES_DIR, `${nameOrPath}.js`)];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found === undefined) {
    throw new TradebotError(
      'STRATEGY_NOT_FOUND',
      looksLikePath
        ? `no strategy file at ${candidates[0] ?? nameOrPath}`
        : `no strategy named "${nameOrPath}" in ${STRATEGIES_DIR} (give a name from that folder or a path to a .ts file)`,
      { kind: 'config' },
    );
  }
  return found;
}

export async function loadStrategy(nameOrPath: string, cwd?: string): Promise<AnyStrategy> {
  const file = resolveStrategyPath(nameOrPath, cwd);
  const module = await importPlugin(file);
  const definition = module.default as Partial<AnyStrategy> | undefined;
  if (
    definition === undefined ||
    typeof definition !== 'object' ||
    typeof definition.name !== 'string' ||
    definition.params === undefined
  ) {
    throw new TradebotError('STRATEGY_INVALID_MODULE', `${file} must default-export defineStrategy({ name, params, ... })`, {
      kind: 'config',
    });
  }
  return definition as AnyStrategy;
}

/** Where params came from, for error messages. */
export interface ParamsSource {
  /** The YAML file (a config file, or a `--params` file). */
  readonly file?: string;
  /**
   * The params' path in that file: `bot.params` in a config file, '' for a params file. Default: `bot.params`
   * with a file, `strategy.params` without one (params assembled by a tool, e.g. a sweep's grid over a base).
   */
  readonly path?: string;
}

/**
 * Validates params from YAML; throws a ConfigError naming the file and each bad field by its YAML path. A
 * string source is a config file (params under `bot.params`).
 */
export function validateParams<S extends AnyStrategy>(strategy: S, raw: unknown, source: string | ParamsSource = {}): unknown {
  const from: ParamsSource = typeof source === 'string' ? { file: source } : source;
  let input: unknown = raw ?? {};
  let result = strategy.params.safeParse(input, { reportInput: true });
  // a fractional number from YAML arrives as its exact text: a z.number() param gets the number (yaml-numbers.ts)
  for (let round = 0; !result.success && round < 3; round++) {
    const converted = numbersWhereExpected(input, result.error.issues);
    if (converted === undefined) break;
    input = converted;
    result = strategy.params.safeParse(input, { reportInput: true });
  }
  if (result.success) return result.data;
  const base = from.path ?? (from.file === undefined ? 'strategy.params' : 'bot.params');
  const problems = result.error.issues.flatMap((issue) =>
    describeIssue(issue, strategy.params).map((p) => ({
      path: base === '' ? p.path : p.path === '' ? base : `${base}.${p.path}`,
      message: p.message,
    })),
  );
  const where = from.file === undefined ? `params of strategy ${strategy.name}` : `${from.file} (params of strategy ${strategy.name})`;
  throw new ConfigError(problems, where);
}
