/**
 * Turns zod issues into config problems a person can act on: the dotted path, what was expected,
 * and for a misspelt key the nearest allowed key ("unknown key maxPositon; did you mean maxPosition?").
 */
import type { z } from 'zod';
import { formatPath, type ConfigProblem } from './errors.ts';
import { isSecretKey } from '../logging/redact.ts';

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
        // An empty key still gets a path a person can find: `""` (e.g. `sim.""`).
        path: path === '' ? key || '""' : `${path}.${key || '""'}`,
        message: unknownKeyMessage(key, allowed),
      }));
    }
    case 'invalid_union': {
      const inner = issue.errors.flat()[0];
      if (inner === undefined || inner.code === 'invalid_type') {
        const expected = [...new Set(issue.errors.flat().flatMap((e) => (e.code === 'invalid_type' ? [noun(e.expected)] : [])))];
        return [
          {
            path,
            message:
              `expected ${expected.length > 0 ? expected.join(' or ') : 'another kind of value'}, ` +
              `got ${gotValue(issue.input, secretAt(issue.path))}`,
          },
        ];
      }
      return [{ path, message: readable(inner, secretAt(issue.path)) }];
    }
    default:
      return [{ path, message: readable(issue, secretAt(issue.path)) }];
  }
}

/** zod's default wording ("Invalid input: expected object, received string") names no fix. */
const GENERIC = /^(Invalid|Too (small|big))/;

/** True when the value at `path` is a secret (a password, a token): its value is never quoted back. */
function secretAt(path: readonly PropertyKey[]): boolean {
  const last = path.at(-1);
  return typeof last === 'string' && isSecretKey(last);
}

/** A problem message in YAML terms: the schema's own message, or zod's default rewritten. */
function readable(issue: Issue, secret: boolean): string {
  if (!GENERIC.test(issue.message)) return issue.message;
  const got = (input: unknown) => gotValue(input, secret);
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${noun(issue.expected)}, got ${got(issue.input)}`;
    case 'too_small':
      return issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint'
        ? `must be ${issue.inclusive === false ? 'greater than' : 'at least'} ${String(issue.minimum)}`
        : `needs at least ${String(issue.minimum)} ${issue.origin === 'string' ? 'characters' : 'items'}`;
    case 'too_big':
      return issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint'
        ? `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}`
        : `may have at most ${String(issue.maximum)} ${issue.origin === 'string' ? 'characters' : 'items'}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${got(issue.input)}`;
    case 'invalid_format': {
      const expected =
        issue.format === 'regex' ? `in the expected form (${issue.message.replace(/^Invalid string: /, '')})` : `a valid ${issue.format}`;
      return `${got(issue.input)} is not ${expected}`;
    }
    default:
      return `${issue.message.replace(/^Invalid \w+: /, '')}; got ${got(issue.input)}`;
  }
}

const NOUNS: Record<string, string> = {
  object: 'a mapping (key: value lines)',
  array: 'a list',
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  null: 'nothing',
};

function noun(expected: string): string {
  return NOUNS[expected] ?? expected;
}

/** What the file holds at that place, briefly (only its kind for a secret). */
function gotValue(input: unknown, secret: boolean): string {
  if (input === undefined) return 'nothing';
  if (input === null) return 'an empty value (null)';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'object') return 'a mapping';
  if (secret) return `a ${typeof input}`;
  const text = JSON.stringify(input) ?? String(input);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
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
