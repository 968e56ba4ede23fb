/**
 * Schema building blocks for config files (zod 4), each with an error message that says what to write:
 * decimal strings that become `Decimal`, file paths resolved against the YAML file's folder, URLs,
 * durations, ports. Every config section is built from these so that messages are uniform.
 */
import path from 'node:path';
import { z } from 'zod';
import { Decimal } from '../domain/decimal.ts';

const DECIMAL_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** Context a schema needs to resolve values: the folder of the YAML file being loaded. */
export interface ConfigContext {
  baseDir: string;
}

/** A decimal written as a string (`"0.55"`) or a plain YAML number (kept exact by the loader). */
export function decimal(options: { min?: string; max?: string; positive?: boolean } = {}) {
  return z.union([z.string(), z.number()], { error: 'expected a decimal string such as "0.55"' }).transform((raw, ctx) => {
    const text = typeof raw === 'number' ? (Number.isSafeInteger(raw) ? String(raw) : '') : raw.trim();
    if (!DECIMAL_TEXT.test(text)) {
      ctx.addIssue({ code: 'custom', message: `expected a decimal string such as "0.55", got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    const value = new Decimal(text);
    if (options.positive === true && value.lte(0)) {
      ctx.addIssue({ code: 'custom', message: `must be greater than 0, got ${text}` });
    }
    if (options.min !== undefined && value.lt(options.min)) {
      ctx.addIssue({ code: 'custom', message: `must be at least ${options.min}, got ${text}` });
    }
    if (options.max !== undefined && value.gt(options.max)) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${options.max}, got ${text}` });
    }
    return value;
  });
}

/** A path in the config, resolved against the folder of the YAML file that holds it. */
export function filePath(context: ConfigContext) {
  return z
    .string({ error: 'expected a file path (relative paths resolve against the config file folder)' })
    .min(1, 'expected a file path, got an empty string')
    .transform((p) => path.resolve(context.baseDir, p));
}

export function url(options: { protocols?: readonly string[] } = {}) {
  const protocols = options.protocols ?? ['http:', 'https:'];
  return z.string({ error: 'expected a URL such as "https://api.example.com"' }).refine(
    (text) => {
      try {
        return protocols.includes(new URL(text).protocol);
      } catch {
        return false;
      }
    },
    { error: (issue) => `expected a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL, got ${JSON.stringify(issue.input)}` },
  );
}

export function port() {
  return z
    .number({ error: 'expected a port number (0 picks a free port)' })
    .int('expected a whole port number')
    .min(0, 'port must be between 0 and 65535')
    .max(65535, 'port must be between 0 and 65535');
}

export function positiveInt(what = 'a positive whole number') {
  return z
    .number({ error: `expected ${what}` })
    .int(`expected ${what}`)
    .positive(`expected ${what}`);
}

/** Durations as seconds (number) — what operators write in YAML. */
export function seconds(what = 'a duration in seconds') {
  return z.number({ error: `expected ${what}` }).positive(`expected ${what} greater than 0`);
}

export function nonEmptyString(what = 'a non-empty string') {
  return z.string({ error: `expected ${what}` }).min(1, `expected ${what}, got an empty string`);
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: (issue) => `expected one of ${values.join(', ')}, got ${JSON.stringify(issue.input)}` });
}
