/**
 * Loads a strategy plugin by name (`strategies/<name>.ts`) or by path, checks that its default export is
 * a `defineStrategy` definition, and validates its params (from YAML) against the plugin's schema. Every
 * params problem is reported at once with its path (`strategy.params.spread: ...`), like config errors.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { ConfigError } from '../../config/errors.ts';
import { describeIssue } from '../../config/issues.ts';
import { TradebotError } from '../../errors.ts';
import type { AnyStrategy } from './define-strategy.ts';

export const STRATEGIES_DIR = fileURLToPath(new URL('../../../strategies/', import.meta.url));

export function resolveStrategyPath(nameOrPath: string, cwd = process.cwd()): string {
  const looksLikePath = nameOrPath.includes('/') || nameOrPath.includes('\\') || /\.(ts|js|mjs)$/.test(nameOrPath);
  const candidates = looksLikePath
    ? [path.resolve(cwd, nameOrPath)]
    : [path.join(STRATEGIES_DIR, `${nameOrPath}.ts`), path.join(STRATEGIES_DIR, `${nameOrPath}.js`)];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found === undefined) {
    throw new TradebotError(
      'STRATEGY_NOT_FOUND',
      looksLikePath ? `no strategy file at ${candidates[0] ?? nameOrPath}` : `no strategy named "${nameOrPath}" in ${STRATEGIES_DIR} (give a name from that folder or a path to a .ts file)`,
      { kind: 'config' },
    );
  }
  return found;
}

export async function loadStrategy(nameOrPath: string, cwd?: string): Promise<AnyStrategy> {
  const file = resolveStrategyPath(nameOrPath, cwd);
  const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
  const definition = module.default as Partial<AnyStrategy> | undefined;
  if (definition === undefined || typeof definition !== 'object' || typeof definition.name !== 'string' || definition.params === undefined) {
    throw new TradebotError('STRATEGY_INVALID_MODULE', `${file} must default-export defineStrategy({ name, params, ... })`, { kind: 'config' });
  }
  return definition as AnyStrategy;
}

/** Validates params from YAML; throws a ConfigError naming each bad field under `strategy.params`. */
export function validateParams<S extends AnyStrategy>(strategy: S, raw: unknown, file?: string): unknown {
  const result = strategy.params.safeParse(raw ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const problems = result.error.issues.flatMap((issue) =>
    describeIssue(issue, strategy.params).map((p) => ({ path: p.path === '' ? 'strategy.params' : `strategy.params.${p.path}`, message: p.message })),
  );
  throw new ConfigError(problems, file ?? `params of strategy ${strategy.name}`);
}
