/**
 * The package.json of `tradebot init` (src/scaffold/package-json.ts planPackageJson): a new one with what a
 * strategy project needs; merged into an existing one (as `npm init -y` and `npm install tradebot` leave it),
 * replacing only npm's placeholders (`"type": "commonjs"`, the failing `test` script) and keeping every other
 * field, script and dependency; invalid JSON is INIT_BAD_PACKAGE_JSON; nothing to change gives no text.
 */
import { describe, expect, it } from 'vitest';
import { isTradebotError } from '../../src/errors.ts';
import { planPackageJson, type ProjectVersions } from '../../src/scaffold/package-json.ts';

const VERSIONS: ProjectVersions = {
  tradebot: '0.1.0',
  devDependencies: { vitest: '^4.1.12', typescript: '^6.0.3', '@types/node': '^20.19.43' },
};

/** What `npm init -y` writes (npm 10) in a folder named quant-lab. */
const NPM_INIT = `${JSON.stringify(
  {
    name: 'quant-lab',
    version: '1.0.0',
    main: 'index.js',
    scripts: { test: 'echo "Error: no test specified" && exit 1' },
    keywords: [],
    author: '',
    license: 'ISC',
    description: '',
    type: 'commonjs',
  },
  null,
  2,
)}\n`;

function parsed(text: string | undefined): Record<string, unknown> {
  expect(text).toBeDefined();
  return JSON.parse(text ?? '') as Record<string, unknown>;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('planPackageJson', () => {
  it('writes a new package.json: an ES module project with the scripts, tradebot and the dev tools', () => {
    const plan = planPackageJson(undefined, 'my-strategies', VERSIONS);
    expect(plan.text?.endsWith('}\n')).toBe(true);
    expect(plan.text).toContain('\n  "name": "my-strategies"');
    expect(parsed(plan.text)).toEqual({
      name: 'my-strategies',
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: {
        test: 'vitest run',
        typecheck: 'tsc --noEmit',
        backtest: 'tradebot backtest --data data/sample.jsonl --out out/backtest',
        start: 'tradebot run',
      },
      dependencies: { tradebot: '^0.1.0' },
      devDependencies: { vitest: '^4.1.12', typescript: '^6.0.3', '@types/node': '^20.19.43' },
    });
    expect(plan.changes).toContain('type: module');
    expect(plan.changes).toContain('dependencies.tradebot: ^0.1.0');
  });

  it('merges into npm init -y: commonjs becomes module, the placeholder test script is replaced, the rest is kept', () => {
    const plan = planPackageJson(NPM_INIT, 'ignored-name', VERSIONS);
    const pkg = parsed(plan.text);
    expect(pkg['type']).toBe('module');
    expect(pkg['name']).toBe('quant-lab');
    expect(pkg['version']).toBe('1.0.0');
    expect(pkg['license']).toBe('ISC');
    expect(pkg['main']).toBe('index.js');
    expect(pkg['keywords']).toEqual([]);
    expect(pkg['private']).toBe(true);
    expect((pkg['scripts'] as Record<string, string>)['test']).toBe('vitest run');
    expect(plan.changes).toEqual(
      expect.arrayContaining([
        'type: module',
        'scripts.test: vitest run',
        'scripts.typecheck: tsc --noEmit',
        'private: true',
        'dependencies.tradebot: ^0.1.0',
        'devDependencies.vitest: ^4.1.12',
      ]),
    );
    expect(plan.changes.some((change) => change.startsWith('name') || change.startsWith('version'))).toBe(false);
  });

  it("keeps the author's own scripts, an existing tradebot dependency (file:../x.tgz) and dev dependency versions", () => {
    const existing = JSON.stringify({
      name: 'desk',
      version: '2.3.4',
      type: 'commonjs',
      scripts: { test: 'node --test', start: 'node run.js', lint: 'eslint .' },
      dependencies: { tradebot: 'file:../tradebot-0.1.0.tgz', lodash: '^4.17.21' },
      devDependencies: { vitest: '^3.0.0' },
      engines: { node: '>=20' },
      private: false,
    });
    const plan = planPackageJson(existing, 'desk', VERSIONS);
    const pkg = parsed(plan.text);
    expect(pkg['scripts']).toEqual({
      test: 'node --test',
      start: 'node run.js',
      lint: 'eslint .',
      typecheck: 'tsc --noEmit',
      backtest: 'tradebot backtest --data data/sample.jsonl --out out/backtest',
    });
    expect(pkg['dependencies']).toEqual({ tradebot: 'file:../tradebot-0.1.0.tgz', lodash: '^4.17.21' });
    expect(pkg['devDependencies']).toEqual({ vitest: '^3.0.0', typescript: '^6.0.3', '@types/node': '^20.19.43' });
    expect(pkg['engines']).toEqual({ node: '>=20' });
    expect(pkg['private']).toBe(false);
    expect(pkg['type']).toBe('module');
    expect([...plan.changes].sort()).toEqual([
      'devDependencies.@types/node: ^20.19.43',
      'devDependencies.typescript: ^6.0.3',
      'scripts.backtest: tradebot backtest --data data/sample.jsonl --out out/backtest',
      'scripts.typecheck: tsc --noEmit',
      'type: module',
    ]);
  });

  it('a dev tool listed under dependencies is not added again under devDependencies', () => {
    const plan = planPackageJson(
      JSON.stringify({
        name: 'x',
        type: 'module',
        private: true,
        version: '1.0.0',
        dependencies: { typescript: '5.9.0', tradebot: '^0.1.0' },
      }),
      'x',
      VERSIONS,
    );
    const pkg = parsed(plan.text);
    expect(pkg['devDependencies']).toEqual({ vitest: '^4.1.12', '@types/node': '^20.19.43' });
    expect(pkg['dependencies']).toEqual({ typescript: '5.9.0', tradebot: '^0.1.0' });
  });

  it('nothing to change: text undefined, no changes (its own output planned again)', () => {
    const first = planPackageJson(NPM_INIT, 'quant-lab', VERSIONS);
    const again = planPackageJson(first.text, 'quant-lab', VERSIONS);
    expect(again.text).toBeUndefined();
    expect(again.changes).toEqual([]);
  });

  it('invalid JSON is INIT_BAD_PACKAGE_JSON asking for a fix by hand', () => {
    const error = thrown(() => planPackageJson('{ "name": "x", }', 'x', VERSIONS));
    expect(isTradebotError(error) && error.code).toBe('INIT_BAD_PACKAGE_JSON');
    expect(isTradebotError(error) && error.kind).toBe('config');
    expect((error as Error).message).toMatch(/package\.json is not valid JSON/);
    expect((error as Error).message).toMatch(/fix it by hand/);
  });

  it.for([
    ['an array', '[]', 'the file'],
    ['scripts that are not an object', '{"scripts": "vitest"}', 'scripts'],
    ['dependencies that are null', '{"dependencies": null}', 'dependencies'],
  ])('a package.json whose %s is INIT_BAD_PACKAGE_JSON naming it', ([, text, where]) => {
    const error = thrown(() => planPackageJson(text, 'x', VERSIONS));
    expect(isTradebotError(error) && error.code).toBe('INIT_BAD_PACKAGE_JSON');
    expect((error as Error).message).toContain(`package.json: ${where} must be an object`);
  });
});
