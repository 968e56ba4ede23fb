/**
 * The load-time check that decimal.js still works the way the in-place methods assume (./parts.ts): known
 * values have the expected `s`, `e`, `d` and own properties (NaN and Infinity no digit words), and the in-place
 * cmp / plus / minus / times give what decimal.js's own prototype gives on a handful of operands (signs,
 * zeros, carries and borrows across words, a cancellation to zero). `decideFastPaths` reads only what it is
 * given, so a test can hand it a fake representation or fake reference methods.
 */
import { comparedTo } from './compare.ts';
import { minus, plus, times } from './arithmetic.ts';
import { make } from './parts.ts';

type Method = (this: unknown, y: unknown) => unknown;
const METHODS = ['comparedTo', 'plus', 'minus', 'times'] as const;
type MethodName = (typeof METHODS)[number];

/** What the decision reads from decimal.js. */
export interface DecimalJsProbe {
  /** The value of a decimal string as decimal.js builds it (its fields and own properties are read). */
  build(text: string): object;
  /** decimal.js's own methods: what the in-place ones must agree with. */
  readonly own: Readonly<Record<MethodName, Method>>;
}

export type FastPathDecision = { readonly install: true } | { readonly install: false; readonly problem: string };

/** [text, s, e, d]: how decimal.js stores these values (d in base-1e7 words, most significant first). */
const KNOWN: readonly (readonly [string, number, number, readonly number[] | null])[] = [
  ['0', 1, 0, [0]],
  ['-5', -1, 0, [5]],
  ['123.456', 1, 2, [123, 4560000]],
  ['-0.001', -1, -3, [10000]],
  ['12345678.9', 1, 7, [1, 2345678, 9000000]],
  ['0.0000001', 1, -7, [1]],
  ['99999999.9999999', 1, 7, [9, 9999999, 9999999]],
  ['Infinity', 1, NaN, null],
];

/** Operand pairs the in-place methods compute themselves (no fallback to decimal.js inside them). */
const PAIRS: readonly (readonly [string, string])[] = [
  ['0.45', '12'],
  ['123.456', '-0.001'],
  ['99999999.9999999', '0.0000001'],
  ['-5', '5'],
  ['12345678.9', '-12345678.8'],
  ['0', '-0.001'],
  ['0.1234567', '7654321'],
  ['-0.55', '-0.45'],
];

const OWN_KEYS = 'constructor,s,e,d';

interface Fields {
  readonly s?: unknown;
  readonly e?: unknown;
  readonly d?: unknown;
}

function describe(x: unknown): string {
  const { s, e, d } = (x ?? {}) as Fields;
  return `s=${String(s)} e=${String(e)} d=${Array.isArray(d) ? `[${d.join(',')}]` : String(d)}`;
}

function representationProblem(probe: DecimalJsProbe): string | undefined {
  for (const [text, s, e, d] of KNOWN) {
    const x = probe.build(text);
    const keys = Object.keys(x).join(',');
    if (keys !== OWN_KEYS) return `decimal.js's ${text} has the own properties ${keys}, not ${OWN_KEYS}`;
    const expected = describe({ s, e, d });
    if (describe(x) !== expected) return `decimal.js stores ${text} as ${describe(x)}, not ${expected}`;
  }
  return undefined;
}

/** The same value as an instance of the project prototype (what the in-place methods recognise as an operand). */
function asProject(x: object): object {
  const { s, e, d } = x as { s: number; e: number; d: number[] };
  return make(s, e, d.slice());
}

const IN_PLACE: Readonly<Record<MethodName, Method>> = { comparedTo, plus, minus, times } as unknown as Record<MethodName, Method>;

function resultText(x: unknown): string {
  return typeof x === 'number' ? String(x) : `${describe(x)} ${String(x)}`;
}

function arithmeticProblem(probe: DecimalJsProbe): string | undefined {
  for (const [a, b] of PAIRS) {
    const x = probe.build(a);
    const y = probe.build(b);
    for (const name of METHODS) {
      const expected = resultText(probe.own[name].call(x, y));
      const actual = resultText(IN_PLACE[name].call(asProject(x), asProject(y)));
      if (actual !== expected) return `the in-place ${name} gives ${actual} for ${a} and ${b}, decimal.js ${expected}`;
    }
  }
  return undefined;
}

/** Install the in-place methods only when decimal.js is represented as they assume and they agree with it. */
export function decideFastPaths(probe: DecimalJsProbe): FastPathDecision {
  let problem: string | undefined;
  try {
    problem = representationProblem(probe) ?? arithmeticProblem(probe);
  } catch (error) {
    problem = `the check threw: ${error instanceof Error ? error.message : String(error)}`;
  }
  return problem === undefined ? { install: true } : { install: false, problem };
}
