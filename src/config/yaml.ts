/**
 * YAML parsing for config files, tuned for money: a plain scalar that YAML would read as a float
 * (`0.55`, `1e3`) and an integer beyond JS's safe range stay as their source text, so a decimal written
 * in a config file reaches `Decimal` exactly and never passes through a binary float.
 */
import { parseDocument, type Tags, type ScalarTag } from 'yaml';
import type { ConfigProblem } from './errors.ts';

function keepExactNumbers(tags: Tags): Tags {
  return tags.map((tag) => {
    const scalar = tag as ScalarTag;
    if (typeof scalar.resolve !== 'function') return tag;
    if (scalar.tag === 'tag:yaml.org,2002:float') return { ...scalar, resolve: (source: string) => source };
    if (scalar.tag === 'tag:yaml.org,2002:int' && scalar.format === undefined) {
      const original = scalar.resolve.bind(scalar);
      return {
        ...scalar,
        resolve: (source: string, onError: (message: string) => void, options: Parameters<ScalarTag['resolve']>[2]) => {
          const value = original(source, onError, options);
          return typeof value === 'number' && !Number.isSafeInteger(value) ? source : value;
        },
      };
    }
    return tag;
  });
}

/** Parses YAML text into a plain tree; syntax errors become problems with line and column. */
export function parseYaml(text: string, problems: ConfigProblem[]): unknown {
  const doc = parseDocument(text, { customTags: keepExactNumbers, prettyErrors: true, uniqueKeys: true });
  for (const error of doc.errors) {
    const where = error.linePos?.[0];
    const at = where === undefined ? '' : ` (line ${where.line}, column ${where.col})`;
    problems.push({ path: '', message: `YAML syntax error${at}: ${error.message.split('\n')[0] ?? error.code}` });
  }
  if (doc.errors.length > 0) return undefined;
  return doc.toJS({ maxAliasCount: 100 });
}
