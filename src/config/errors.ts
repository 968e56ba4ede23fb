/**
 * ConfigError: every problem of a config file, reported in one go, one line each, as
 * `<path>: <what is wrong and how to fix it>` (e.g. `risk.maxPosition: expected a decimal string such as "10"`).
 */
import { TradebotError } from '../errors.ts';

export interface ConfigProblem {
  /** Dotted path with [index] for arrays, e.g. `sim.users[0].password`; '' for the whole file. */
  path: string;
  message: string;
}

export class ConfigError extends TradebotError {
  readonly problems: readonly ConfigProblem[];
  readonly file: string | undefined;

  constructor(problems: readonly ConfigProblem[], file?: string, code = 'CONFIG_INVALID') {
    const where = file === undefined ? 'config' : file;
    const heading = problems.length === 1 ? `${where} has 1 problem:` : `${where} has ${problems.length} problems:`;
    const lines = problems.map((p) => `  ${p.path === '' ? '(file)' : p.path}: ${p.message}`);
    super(code, [heading, ...lines].join('\n'), { kind: 'config', details: { file, problems } });
    this.name = 'ConfigError';
    this.problems = problems;
    this.file = file;
  }
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}
