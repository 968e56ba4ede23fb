/**
 * Fractional numbers in strategy params. The config reader keeps a YAML number with a fraction (`ratio:
 * 0.25`) as its exact source text, so money reaches `decimal()` without passing through a binary float. A
 * plugin that declares a plain `z.number()` (a ratio, a z-score threshold) would then see a string and refuse
 * it. `numbersWhereExpected` turns exactly those strings, at the paths where the schema refused a string and
 * wanted a number, into numbers, and leaves every other value as written.
 */
import type { z } from 'zod';

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function valueAt(raw: unknown, at: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const key of at) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Paths of numeric strings where a number was expected: the issue's own, or inside a union's options. */
function numbersWanted(issue: z.core.$ZodIssue, raw: unknown, prefix: readonly PropertyKey[] = []): (readonly PropertyKey[])[] {
  const at = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union') return issue.errors.flatMap((option) => option.flatMap((inner) => numbersWanted(inner, raw, at)));
  if (issue.code !== 'invalid_type' || issue.expected !== 'number') return [];
  const value = valueAt(raw, at);
  return typeof value === 'string' && NUMERIC.test(value.trim()) ? [at] : [];
}

function withNumberAt(tree: unknown, at: readonly PropertyKey[]): unknown {
  if (at.length === 0) return Number(String(tree).trim());
  const [key, ...rest] = at;
  if (Array.isArray(tree)) return tree.map((item, i) => (i === key ? withNumberAt(item, rest) : item));
  const record = tree as Record<PropertyKey, unknown>;
  return { ...record, [key as PropertyKey]: withNumberAt(record[key as PropertyKey], rest) };
}

/**
 * `raw` with every numeric string the schema's issues say should have been a number replaced by that number;
 * undefined when there is none (the issues are about something else).
 */
export function numbersWhereExpected(raw: unknown, issues: readonly z.core.$ZodIssue[]): unknown {
  const paths = issues.flatMap((issue) => numbersWanted(issue, raw));
  if (paths.length === 0) return undefined;
  const unique = [...new Map(paths.map((at) => [JSON.stringify(at.map(String)), at])).values()];
  return unique.reduce<unknown>((tree, at) => withNumberAt(tree, at), raw);
}
