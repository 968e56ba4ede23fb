/**
 * Fractional numbers in strategy params. The config reader keeps a YAML number with a fraction (`ratio:
 * 0.25`) as its exact source text, so money reaches `decimal()` without passing through a binary float. A
 * plugin that declares a plain `z.number()` (a ratio, a z-score threshold) would then see a string and refuse
 * it. `numbersWhereExpected` turns exactly those strings, at the paths where the schema refused a string and
 * wanted a number, into numbers, and leaves every other value as written.
 */
import type { z } from 'zod';

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function numberWanted(issue: z.core.$ZodIssue, raw: unknown): readonly PropertyKey[] | undefined {
  if (issue.code !== 'invalid_type' || issue.expected !== 'number') return undefined;
  let value = raw;
  for (const key of issue.path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return typeof value === 'string' && NUMERIC.test(value.trim()) ? issue.path : undefined;
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
  const paths = issues.map((issue) => numberWanted(issue, raw)).filter((p): p is readonly PropertyKey[] => p !== undefined);
  if (paths.length === 0) return undefined;
  return paths.reduce<unknown>((tree, at) => withNumberAt(tree, at), raw);
}
