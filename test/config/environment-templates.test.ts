// The environment templates (config/development.yaml, preproduction.yaml, production.yaml): each loads with
// its environment variables set, names every missing variable by its path when they are not, keeps secrets
// out of the file (only ${VAR} references and key-file paths), and production is the tightest on risk.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, loadConfig, type TradebotConfig } from '../../src/config/index.ts';
import type { Decimal } from '../../src/domain/decimal.ts';
import { loadStrategy, validateParams } from '../../src/engine/strategy/loader.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Template {
  readonly name: 'development' | 'preproduction' | 'production';
  readonly prefix: string;
}

const TEMPLATES: readonly Template[] = [
  { name: 'development', prefix: 'TRADEBOT_DEV' },
  { name: 'preproduction', prefix: 'TRADEBOT_PREPROD' },
  { name: 'production', prefix: 'TRADEBOT_PROD' },
];

/** Every variable a template references, with the config path that names it when missing. */
function variablesOf(prefix: string): Record<string, { path: string; value: string }> {
  return {
    [`${prefix}_CLIENT_ID`]: { path: 'exchange.familyA.clientId', value: 'client-123' },
    [`${prefix}_PARTICIPANT`]: { path: 'exchange.familyA.participant', value: 'firms/acme/users/bot' },
    [`${prefix}_GATEWAY_USERNAME`]: { path: 'exchange.gateway.username', value: 'acme-bot' },
    [`${prefix}_GATEWAY_PASSWORD`]: { path: 'exchange.gateway.password', value: 'not-a-real-password-42' },
    [`${prefix}_GATEWAY_MFA_SECRET`]: { path: 'exchange.gateway.mfaSecret', value: 'JBSWY3DPEHPK3PXP' },
    [`${prefix}_ACCOUNT`]: { path: 'bot.account', value: 'firms/acme/accounts/main' },
  };
}

const fileOf = (t: Template) => path.join(ROOT, 'config', `${t.name}.yaml`);

function fakeEnv(t: Template): Record<string, string> {
  return Object.fromEntries(Object.entries(variablesOf(t.prefix)).map(([name, v]) => [name, v.value]));
}

function load(t: Template): TradebotConfig {
  return loadConfig(fileOf(t), { env: fakeEnv(t) });
}

function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

/** The YAML tree as written (before ${VAR} substitution). */
function rawTree(t: Template): { exchange: { gateway: Record<string, unknown>; familyA: Record<string, unknown> } } {
  return parse(readFileSync(fileOf(t), 'utf8')) as { exchange: { gateway: Record<string, unknown>; familyA: Record<string, unknown> } };
}

describe.each(TEMPLATES)('environment template $name', (t) => {
  it('loads with its environment variables set', () => {
    const config = load(t);
    const exchange = config.exchange;
    expect(exchange?.familyA?.clientId).toBe('client-123');
    expect(exchange?.familyA?.participant).toBe('firms/acme/users/bot');
    expect(exchange?.familyA?.privateKeyFile).toBe(path.join(ROOT, 'keys', t.name, 'private-key.pem'));
    expect(exchange?.gateway).toEqual({ username: 'acme-bot', password: 'not-a-real-password-42', mfaSecret: 'JBSWY3DPEHPK3PXP' });
    expect(config.bot.account).toBe('firms/acme/accounts/main');
    expect(config.bot.metrics?.port).toBeGreaterThan(0);
    expect(config.sim).toBeUndefined();
  });

  it('has its own https URLs for the environment', () => {
    const exchange = load(t).exchange;
    const hosts = [exchange?.apiUrl, exchange?.authUrl, exchange?.gatewayUrl].map((u) => new URL(u ?? '').hostname);
    for (const url of [exchange?.apiUrl, exchange?.authUrl, exchange?.gatewayUrl]) expect(new URL(url ?? '').protocol).toBe('https:');
    expect(new Set(hosts).size).toBe(3);
    const others = TEMPLATES.filter((o) => o.name !== t.name).flatMap((o) => {
      const e = load(o).exchange;
      return [e?.apiUrl, e?.authUrl, e?.gatewayUrl];
    });
    for (const url of [exchange?.apiUrl, exchange?.authUrl, exchange?.gatewayUrl]) expect(others).not.toContain(url);
  });

  it('names each missing environment variable with its path', () => {
    const error = configErrorOf(() => loadConfig(fileOf(t), { env: {} }));
    expect(error.code).toBe('CONFIG_INVALID');
    for (const [name, { path: at }] of Object.entries(variablesOf(t.prefix))) {
      const problem = error.problems.find((p) => p.path === at && p.message.includes(name));
      expect(problem, `${at} should name ${name}`).toBeDefined();
      expect(error.message).toContain(`${at}: environment variable ${name} is not set`);
    }
    const named = error.problems.filter((p) => p.message.startsWith('environment variable '));
    expect(named).toHaveLength(Object.keys(variablesOf(t.prefix)).length);
  });

  it('names only the one variable that is missing', () => {
    const env = fakeEnv(t);
    delete env[`${t.prefix}_GATEWAY_PASSWORD`];
    const error = configErrorOf(() => loadConfig(fileOf(t), { env }));
    expect(new Set(error.problems.map((p) => p.path))).toEqual(new Set(['exchange.gateway.password']));
    expect(error.problems[0]?.message).toContain(`${t.prefix}_GATEWAY_PASSWORD`);
  });

  it('keeps secrets out of the file: bare ${VAR} references (no defaults) and a key-file path', () => {
    const raw = rawTree(t);
    for (const key of ['password', 'mfaSecret']) expect(raw.exchange.gateway[key]).toMatch(/^\$\{[A-Z][A-Z0-9_]*\}$/);
    expect(raw.exchange.familyA.privateKeyFile).toMatch(/\.pem$/);
    expect(readFileSync(fileOf(t), 'utf8')).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
  });

  it('gives params the configured strategy accepts, within the risk limits', async () => {
    const config = load(t);
    const strategy = await loadStrategy(config.bot.strategy, ROOT);
    const params = validateParams(strategy, config.bot.params) as { quoteQty: Decimal; maxInventory: Decimal };
    // Quotes the risk limits let through: otherwise every quote would be refused.
    expect(params.quoteQty.lte(config.risk.maxOrderQty ?? 0)).toBe(true);
    expect(params.maxInventory.lte(config.risk.maxPosition ?? 0)).toBe(true);
  });

  it('sets every risk limit', () => {
    const risk = load(t).risk;
    for (const limit of [
      risk.maxOrderQty,
      risk.maxOrderNotional,
      risk.maxPosition,
      risk.maxEventPosition,
      risk.maxDailyLoss,
      risk.priceBand,
    ]) {
      expect(limit).toBeDefined();
    }
    expect(risk.maxOpenOrders).toBeDefined();
    expect(risk.onDailyLoss).toBe('halted');
    expect(risk.onStrategyError).toBe('halted');
  });
});

describe('production template', () => {
  it('has no ${VAR:-default} fallback in any value', () => {
    const strings = (node: unknown): string[] => {
      if (typeof node === 'string') return [node];
      if (node !== null && typeof node === 'object') return Object.values(node).flatMap(strings);
      return [];
    };
    const values = strings(rawTree({ name: 'production', prefix: 'TRADEBOT_PROD' }));
    expect(values.filter((v) => v.includes('${'))).toHaveLength(Object.keys(variablesOf('TRADEBOT_PROD')).length);
    expect(values.filter((v) => /\$\{[A-Za-z_][A-Za-z0-9_]*:-/.test(v))).toEqual([]);
  });

  it('has risk limits no looser than pre-production, and pre-production none looser than development', () => {
    const [dev, preprod, prod] = TEMPLATES.map((t) => load(t).risk);
    const decimals = (r: TradebotConfig['risk']): (Decimal | undefined)[] => [
      r.maxOrderQty,
      r.maxOrderNotional,
      r.maxPosition,
      r.maxEventPosition,
      r.maxDailyLoss,
    ];
    const numbers = (r: TradebotConfig['risk']): (number | undefined)[] => [r.maxOpenOrders, r.maxMessagesPerSecond, r.priceBand?.ticks];
    const pairs: [TradebotConfig['risk'] | undefined, TradebotConfig['risk'] | undefined][] = [
      [prod, preprod],
      [preprod, dev],
    ];
    for (const [tighter, looser] of pairs) {
      if (tighter === undefined || looser === undefined) throw new Error('missing template');
      decimals(tighter).forEach((value, i) => expect(value?.lte(decimals(looser)[i] ?? 0), `decimal limit #${i}`).toBe(true));
      numbers(tighter).forEach((value, i) => expect(value ?? Infinity).toBeLessThanOrEqual(numbers(looser)[i] ?? 0));
    }
    expect(prod?.maxPosition?.lt(dev?.maxPosition ?? 0)).toBe(true);
    expect(prod?.maxDailyLoss?.lt(dev?.maxDailyLoss ?? 0)).toBe(true);
  });
});
