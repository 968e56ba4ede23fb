/**
 * `${ENV_VAR}` references in config values: secrets stay out of YAML files. `${NAME:-default}` gives a
 * fallback, `$${` writes a literal `${`. A reference to an unset variable is a problem at that value's path.
 */
import type { ConfigProblem } from './errors.ts';
import { formatPath } from './errors.ts';

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export type Environment = Readonly<Record<string, string | undefined>>;

/** Returns a copy of `tree` with every reference in string values replaced; collects unset ones. */
export function interpolateEnv(tree: unknown, env: Environment, problems: ConfigProblem[], path: PropertyKey[] = []): unknown {
  if (typeof tree === 'string') return interpolateString(tree, env, problems, path);
  if (Array.isArray(tree)) return tree.map((item, i) => interpolateEnv(item, env, problems, [...path, i]));
  if (tree !== null && typeof tree === 'object') {
    const out: Record<string, unknown> = {};
    // defineProperty keeps a `__proto__` key an own (unknown, reported) key instead of setting the prototype.
    for (const [key, value] of Object.entries(tree)) {
      Object.defineProperty(out, key, {
        value: interpolateEnv(value, env, problems, [...path, key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return tree;
}

function interpolateString(text: string, env: Environment, problems: ConfigProblem[], path: PropertyKey[]): string {
  return text.replace(REFERENCE, (match, name: string | undefined, fallback: string | undefined) => {
    if (match === '$${') return '${';
    const value = env[name as string];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    problems.push({
      path: formatPath(path),
      message: `environment variable ${name as string} is not set (export it, or give a default as \${${name as string}:-value})`,
    });
    return '';
  });
}
