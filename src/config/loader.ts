/**
 * Loads a YAML config file through one zod schema: YAML (exact decimals) -> `${ENV}` interpolation ->
 * schema validation (unknown keys are errors, relative paths resolved against the file's folder).
 * Every problem in the file is collected and thrown at once as a ConfigError, each with its path.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { ConfigError, formatPath, type ConfigProblem } from './errors.ts';
import { interpolateEnv, type Environment } from './env.ts';
import { parseYaml } from './yaml.ts';
import type { ConfigContext } from './fields.ts';
import { describeIssue } from './issues.ts';

export type SchemaFactory<S extends z.ZodType> = (context: ConfigContext) => S;

export interface LoadOptions {
  env?: Environment;
}

/** Reads and validates `file`; throws ConfigError (code CONFIG_INVALID or CONFIG_UNREADABLE). */
export function loadConfigFile<S extends z.ZodType>(file: string, schema: SchemaFactory<S>, options: LoadOptions = {}): z.output<S> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message;
    throw new ConfigError([{ path: '', message: `cannot read ${file}: ${reason}` }], file, 'CONFIG_UNREADABLE');
  }
  return parseConfigText(text, schema, { ...options, file });
}

/** Validates YAML text as if it were the file `file` (relative paths resolve against its folder). */
export function parseConfigText<S extends z.ZodType>(
  text: string,
  schema: SchemaFactory<S>,
  options: LoadOptions & { file?: string } = {},
): z.output<S> {
  const problems: ConfigProblem[] = [];
  const file = options.file;
  const tree = parseYaml(text, problems);
  if (problems.length > 0) throw new ConfigError(problems, file);
  const interpolated = interpolateEnv(tree ?? {}, options.env ?? process.env, problems);
  const context: ConfigContext = { baseDir: file === undefined ? process.cwd() : path.dirname(path.resolve(file)) };
  const root = schema(context);
  const result = root.safeParse(interpolated, { reportInput: true });
  if (!result.success) {
    // A value whose ${VAR} was unset is already reported; its follow-on schema complaint would only confuse.
    const unset = new Set(problems.map((p) => p.path));
    for (const issue of result.error.issues) problems.push(...describeIssue(issue, root).filter((p) => !unset.has(p.path)));
  }
  if (problems.length > 0) {
    const unique = dedupe(problems).sort((a, b) => a.path.localeCompare(b.path));
    throw new ConfigError(unique, file);
  }
  return (result as { data: z.output<S> }).data;
}

function dedupe(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export { formatPath };
