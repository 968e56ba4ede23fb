/**
 * Turns zod issues into config problems a person can act on: the dotted path, what was expected,
 * and for a misspelt key the nearest allowed key ("unknown key maxPositon; did you mean maxPosition?").
 */
import type { z } from 'zod';
import { formatPath, type ConfigProblem } from './errors.ts';

type Issue = z.core.$ZodIssue;

export function describeIssue(issue: Issue, root: z.ZodType): ConfigProblem[] {
  const path = formatPath(issue.path);
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_union') && issue.input === undefined) {
    return [{ path, message: `is required (${issue.message.replace(/^Invalid input: /, '')})` }];
  }
  switch (issue.code) {
    case 'unrecognized_keys': {
      const allowed = allowedKeysAt(root, issue.path);
      return issue.keys.map((key) => ({
        path: path === '' ? key : `${path}.${key}`,
        message: unknownKeyMessage(key, allowed),
      }));
    }
    case 'invalid_union': {
      const inner = issue.errors.flat()[0];
      return [{ path, message: inner === undefined || inner.code === 'invalid_type' ? issue.message : inner.message }];
    }
    default:
      return [{ path, message: issue.message }];
  }
}

function unknownKeyMessage(key: string, allowed: readonly string[]): string {
  const nearest = closest(key, allowed);
  if (nearest !== undefined) return `unknown key; did you mean "${nearest}"?`;
  if (allowed.length > 0) return `unknown key; allowed keys here: ${allowed.join(', ')}`;
  return 'unknown key; remove it';
}

/** Walks the schema along `path` through wrappers, pipes, arrays and records to find an object's keys. */
function allowedKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: unknown = schema;
  for (const part of path) {
    node = unwrap(node);
    const def = defOf(node);
    if (def === undefined) return [];
    if (def.type === 'object' && typeof part === 'string') node = (def.shape as Record<string, unknown>)[part];
    else if (def.type === 'array') node = def.element;
    else if (def.type === 'record') node = def.valueType;
    else return [];
  }
  const def = defOf(unwrap(node));
  return def?.type === 'object' ? Object.keys(def.shape as Record<string, unknown>) : [];
}

interface AnyDef {
  type: string;
  [key: string]: unknown;
}

function defOf(node: unknown): AnyDef | undefined {
  const zod = (node as { _zod?: { def?: AnyDef } } | undefined)?._zod;
  return zod?.def;
}

function unwrap(node: unknown): unknown {
  let current = node;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    if (def === undefined) return current;
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type)) current = def.innerType;
    else if (def.type === 'pipe') current = def.in;
    else if (def.type === 'lazy') current = (def.getter as () => unknown)();
    else return current;
  }
  return current;
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j] as number;
      row[j] = Math.min((row[j] as number) + 1, (row[j - 1] as number) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = saved;
    }
  }
  return row[b.length] as number;
}
