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

const TOO_DEEP = 'the YAML nests too deeply to read; flatten the structure (a config file needs only a few levels)';
/** Deeper flow collections (`[`, `{`) than this are refused unparsed; a config file uses a handful. */
const MAX_FLOW_DEPTH = 200;
/** A line indented further than this (block nesting) is refused unparsed. */
const MAX_INDENT = 1000;

/**
 * True when `text` nests flow collections deeper than MAX_FLOW_DEPTH or indents a line past MAX_INDENT.
 * Brackets inside quoted scalars and comments are not counted (a rough lexer: what it misses, the parser's own
 * stack-overflow check below still reports).
 */
export function nestsTooDeeply(text: string): boolean {
  let depth = 0;
  let indent = 0;
  let lineStart = true;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      lineStart = true;
      indent = 0;
      continue;
    }
    if (lineStart && c === ' ') {
      if (++indent > MAX_INDENT) return true;
      continue;
    }
    lineStart = false;
    if (quote !== undefined) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if ((c === '"' || c === "'") && opensScalar(text[i - 1])) quote = c;
    else if (c === '#' && (i === 0 || text[i - 1] === ' ' || text[i - 1] === '\t' || text[i - 1] === '\n')) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '[' || c === '{') {
      if (++depth > MAX_FLOW_DEPTH) return true;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return false;
}

/** A quote starts a quoted scalar only at a value's start (an apostrophe inside a plain word does not). */
function opensScalar(before: string | undefined): boolean {
  return before === undefined || before === ' ' || before === '\t' || before === '\n' || ':,[{-?'.includes(before);
}

/** At most this many alias uses per file: more is how a "billion laughs" document blows up on expansion. */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses YAML text into a plain tree; syntax errors become problems with line and column. A document the
 * parser cannot even walk (nesting deep enough to exhaust the stack, aliases that expand without bound) is
 * one problem saying so, never an exception; so is an alias inside the node it names (a cyclic value).
 */
export function parseYaml(text: string, problems: ConfigProblem[]): unknown {
  // Checked before the parser sees it: a parser recursing to the stack's end can take the process down (V8
  // aborts when it must compile a regular expression with the stack exhausted), not only throw.
  if (nestsTooDeeply(text)) {
    problems.push({ path: '', message: TOO_DEEP });
    return undefined;
  }
  const doc = parseDocument(text, { customTags: keepExactNumbers, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.some((error) => error instanceof Error && /Maximum call stack size exceeded/.test(error.message))) {
    problems.push({ path: '', message: TOO_DEEP });
    return undefined;
  }
  for (const error of doc.errors) {
    const where = error.linePos?.[0];
    const at = where === undefined ? '' : ` (line ${where.line}, column ${where.col})`;
    problems.push({ path: '', message: `YAML syntax error${at}: ${error.message.split('\n')[0] ?? error.code}` });
  }
  if (doc.errors.length > 0) return undefined;
  try {
    const tree: unknown = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    if (containsItself(tree, new Set())) {
      problems.push({
        path: '',
        message: 'an alias (*name) refers to a node that contains it, a value without end; write the value out instead',
      });
      return undefined;
    }
    return tree;
  } catch (error) {
    const reason =
      error instanceof ReferenceError && /alias/i.test(error.message)
        ? `aliases (*name) expand to too many nodes (limit ${MAX_ALIAS_COUNT}); write the values out instead of nesting anchors`
        : error instanceof RangeError
          ? 'the YAML nests too deeply to read; flatten the structure'
          : `the YAML cannot be read: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    problems.push({ path: '', message: reason });
    return undefined;
  }
}

/** True when a list or map holds itself, directly or deeper (`key: &a [*a]` reads as a cyclic structure). */
function containsItself(node: unknown, ancestors: Set<object>): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (ancestors.has(node)) return true;
  ancestors.add(node);
  const children = node instanceof Map ? [...node.values()] : Array.isArray(node) ? node : Object.values(node);
  for (const child of children) if (containsItself(child, ancestors)) return true;
  ancestors.delete(node);
  return false;
}
