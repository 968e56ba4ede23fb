// Config loading: exact decimals, ${ENV} references, unknown keys, every problem at once with its path.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Decimal } from '../../src/domain/decimal.ts';
import { ConfigError, loadConfigFile, parseConfigText, fields, type ConfigContext } from '../../src/config/index.ts';

const riskSchema = (context: ConfigContext) =>
  z.strictObject({
    risk: z.strictObject({
      maxPosition: fields.decimal({ positive: true }),
      maxOrderQty: fields.decimal().optional(),
      priceBand: fields.decimal().optional(),
    }),
    keyFile: fields.filePath(context).optional(),
    password: z.string().optional(),
    users: z.array(z.strictObject({ username: fields.nonEmptyString(), port: fields.port() })).optional(),
  });

function problemsOf(fn: () => unknown): { path: string; message: string }[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

describe('config loader', () => {
  it('reads decimals exactly, never through a float', () => {
    const config = parseConfigText(
      'risk:\n  maxPosition: 0.1\n  maxOrderQty: "12345678901234567890.123456789"\n  priceBand: 3\n',
      riskSchema,
    );
    expect(config.risk.maxPosition).toBeInstanceOf(Decimal);
    expect(config.risk.maxPosition.toString()).toBe('0.1');
    expect(config.risk.maxOrderQty?.toFixed()).toBe('12345678901234567890.123456789');
    expect(config.risk.priceBand?.toString()).toBe('3');
  });

  it('names the path and the expected form of a bad decimal', () => {
    const problems = problemsOf(() => parseConfigText('risk:\n  maxPosition: lots\n', riskSchema));
    expect(problems).toEqual([{ path: 'risk.maxPosition', message: 'expected a decimal string such as "0.55", got "lots"' }]);
  });

  it('reports every problem in one go, sorted by path', () => {
    const yaml = 'risk:\n  maxPosition: -1\n  maxPositon: 3\nusers:\n  - username: ""\n    port: 70000\nextra: 1\n';
    const problems = problemsOf(() => parseConfigText(yaml, riskSchema));
    expect(problems.map((p) => p.path)).toEqual(['extra', 'risk.maxPosition', 'risk.maxPositon', 'users[0].port', 'users[0].username']);
    expect(problems.find((p) => p.path === 'risk.maxPositon')?.message).toBe('unknown key; did you mean "maxPosition"?');
    expect(problems.find((p) => p.path === 'extra')?.message).toMatch(/unknown key; allowed keys here: risk, keyFile, password, users/);
    expect(problems.find((p) => p.path === 'users[0].port')?.message).toBe('port must be between 0 and 65535');
  });

  it('says a required key is missing', () => {
    const problems = problemsOf(() => parseConfigText('risk: {}\n', riskSchema));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.path).toBe('risk.maxPosition');
    expect(problems[0]?.message).toMatch(/^is required/);
  });

  it('replaces ${ENV_VAR} references, with defaults, and reports unset ones at their path', () => {
    const text = 'risk:\n  maxPosition: ${MAX_POS}\npassword: ${TRADEBOT_PASSWORD}\n';
    const config = parseConfigText(text, riskSchema, { env: { MAX_POS: '5', TRADEBOT_PASSWORD: 's3cret' } });
    expect(config.password).toBe('s3cret');
    expect(config.risk.maxPosition.toString()).toBe('5');
    expect(parseConfigText('risk:\n  maxPosition: ${NOPE:-7}\n', riskSchema, { env: {} }).risk.maxPosition.toString()).toBe('7');
    const problems = problemsOf(() => parseConfigText(text, riskSchema, { env: { MAX_POS: '5' } }));
    expect(problems).toEqual([{ path: 'password', message: expect.stringContaining('environment variable TRADEBOT_PASSWORD is not set') }]);
  });

  it('refuses an alias inside the node it names (a cyclic value) as a problem, not a crash', () => {
    for (const text of ['risk: &a [*a]\n', 'risk:\n  x: &a { y: *a }\n', 'key: &a [*a]\nrisk: {}\n']) {
      const problems = problemsOf(() => parseConfigText(text, riskSchema));
      expect(problems.map((p) => p.message).join(' '), text).toContain('refers to a node that contains it');
    }
  });

  it('keeps a literal ${ written as $${', () => {
    expect(parseConfigText('risk:\n  maxPosition: 1\npassword: "a$${b}"\n', riskSchema, { env: {} }).password).toBe('a${b}');
  });

  it('resolves relative file paths against the folder of the YAML file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-config-'));
    const file = path.join(dir, 'bot.yaml');
    writeFileSync(file, 'risk:\n  maxPosition: 1\nkeyFile: keys/private.pem\n');
    expect(loadConfigFile(file, riskSchema).keyFile).toBe(path.join(dir, 'keys/private.pem'));
  });

  it('reports YAML syntax errors with line and column, and a missing file as unreadable', () => {
    const problems = problemsOf(() => parseConfigText('risk:\n  maxPosition: [1,\n', riskSchema));
    expect(problems[0]?.message).toMatch(/YAML syntax error \(line \d+, column \d+\)/);
    try {
      loadConfigFile('/nonexistent/tradebot.yaml', riskSchema);
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).code).toBe('CONFIG_UNREADABLE');
      expect((error as ConfigError).message).toContain('file not found');
    }
  });

  it('formats the error message with one line per problem', () => {
    try {
      parseConfigText('risk:\n  maxPosition: x\nextra: 1\n', riskSchema, { file: 'config/bot.yaml' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).message).toBe(
        'config/bot.yaml has 2 problems:\n' +
          '  extra: unknown key; allowed keys here: risk, keyFile, password, users\n' +
          '  risk.maxPosition: expected a decimal string such as "0.55", got "x"',
      );
      expect((error as ConfigError).code).toBe('CONFIG_INVALID');
    }
  });
});
