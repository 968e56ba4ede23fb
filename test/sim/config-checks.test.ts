// The sim section's cross-field checks: every problem of the file at once, with its path and the fix,
// from the schema (so `tradebot config check` finds them, not only the start).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, parseConfig, type ConfigProblem } from '../../src/config/index.ts';
import { runCli } from '../../src/cli/run-cli.ts';

const GOOD_INSTRUMENT = `
    - symbol: GOOD
      priceScale: 100
      tickSize: "0.01"
      priceLimits: { low: "0.01", high: "0.99" }
      fairValue: "0.42"`;

function simYaml(instruments: string, extra = ''): string {
  return `
logging: { level: silent }
sim:
  users:
    - username: alice
      password: pw-alice-123456
      participant: firms/demo/users/alice
      accounts: [firms/demo/accounts/alice-main]
  instruments:${instruments}
${extra}`;
}

function problemsOf(text: string): ConfigProblem[] {
  try {
    parseConfig(text, { env: {} });
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

function messageAt(problems: readonly ConfigProblem[], at: string): string | undefined {
  return problems.find((p) => p.path === at)?.message;
}

/** One file with many problems (and a few allowed repeats). */
const BROKEN = `
logging: { level: silent }
sim:
  users:
    - username: alice
      password: pw-alice-123456
      participant: firms/demo/users/alice
      accounts: [firms/demo/accounts/alice-main]
    - username: alice
      password: pw-alice-other
      participant: firms/demo/users/alice2
      accounts: [firms/demo/accounts/a2, firms/demo/accounts/a2]
    - username: carol
      password: pw-carol-123456
      participant: firms/demo/users/alice
      accounts: [firms/demo/accounts/carol]
  clients:
    - { clientId: bot-1, publicKeyFile: keys/a.pem, scopes: [read:orders], participant: firms/demo/users/alice }
    - { clientId: bot-1, publicKeyFile: keys/b.pem, scopes: [write:orders], participant: firms/demo/users/alice }
    - { clientId: bot-2, publicKeyFile: keys/c.pem, participant: firms/demo/users/alice }
    - { clientId: bot-2, publicKeyFile: keys/c.pem, participant: firms/demo/users/alice }
    - { clientId: bot-3, publicKeyFile: keys/d.pem, scopes: [read:orders], participant: firms/demo/users/alice }
    - { clientId: bot-3, publicKeyFile: keys/e.pem, scopes: [read:orders], participant: firms/demo/users/alice }
  instruments:
    - symbol: FINE-TICK
      priceScale: 100
      tickSize: "0.001"
      priceLimits: { low: "0.01", high: "0.99" }
    - symbol: SCALE
      priceScale: 250
      fractionalQtyScale: 3
      tickSize: "0.01"
      priceLimits: { low: "0.01", high: "0.99" }
    - symbol: OFF-TICK
      priceScale: 1000
      tickSize: "0.01"
      lotSize: "0.5"
      priceLimits: { low: "0.015", high: "0.99" }
      fairValue: "0.425"
    - symbol: OUTSIDE
      priceScale: 100
      tickSize: "0.05"
      priceLimits: { low: "0.05", high: "0.95" }
      fairValue: "1"
    - symbol: OFF-SCALE
      priceScale: 100
      tickSize: "0.01"
      priceLimits: { low: "0.005", high: "0.99" }
      fairValue: "0.123"
    - symbol: FINE-TICK
      priceScale: 100
      tickSize: "0.01"
      priceLimits: { low: "0.01", high: "0.99" }
`;

afterEach(() => vi.restoreAllMocks());

describe('sim config checks', () => {
  it('reports every problem at once with its path and the fix', () => {
    const problems = problemsOf(BROKEN);
    const at = (p: string) => messageAt(problems, `sim.${p}`);
    expect(at('instruments[0].tickSize')).toBe(
      '0.001 is finer than priceScale 100 can express (steps of 0.01); use a multiple of 0.01 or set priceScale to 1000',
    );
    expect(at('instruments[1].priceScale')).toMatch(/^250 is not a power of ten; use 1, 10, 100/);
    expect(at('instruments[1].fractionalQtyScale')).toMatch(/^3 is not 0 or a power of ten/);
    expect(at('instruments[2].lotSize')).toMatch(/^0\.5 is finer than fractionalQtyScale 1 can express/);
    expect(at('instruments[2].priceLimits.low')).toBe('0.015 is not a multiple of the tickSize 0.01; use 0.01 or 0.02');
    expect(at('instruments[2].fairValue')).toBe('0.425 is not a multiple of the tickSize 0.01; use 0.42 or 0.43');
    expect(at('instruments[3].fairValue')).toBe('1 is outside the price limits 0.05 to 0.95; pick a value within them');
    expect(at('instruments[4].priceLimits.low')).toMatch(/^0\.005 has more decimals than priceScale 100 allows/);
    expect(at('instruments[4].fairValue')).toMatch(/^0\.123 has more decimals than priceScale 100 allows/);
    expect(at('instruments[5].symbol')).toBe('"FINE-TICK" is also the symbol of instruments[0]; give each instrument its own symbol');
    expect(at('users[1].username')).toBe(
      '"alice" is also the username of users[0]; usernames must be unique (a later entry would replace the earlier one)',
    );
    expect(at('users[1].accounts[1]')).toMatch(/is listed twice/);
    expect(at('users[2].participant')).toMatch(/^"firms\/demo\/users\/alice" is also the participant of users\[0\]/);
    expect(at('clients[1].clientId')).toMatch(
      /^"bot-1" is also the clientId of clients\[0\] with different scopes; entries of one client \(key rotation\) must agree/,
    );
    expect(at('clients[3].clientId')).toMatch(/repeats clients\[2\] with the same publicKeyFile/);
    // key rotation (same settings, another key file) stays allowed
    expect(at('clients[5].clientId')).toBeUndefined();
    // the good parts raise nothing
    expect(problems.filter((p) => p.path.startsWith('sim.instruments[5].') && p.path !== 'sim.instruments[5].symbol')).toEqual([]);
    expect(problems).toHaveLength(15);
  });

  it('still checks instruments when other fields of the file are wrong', () => {
    const problems = problemsOf(
      simYaml(
        `${GOOD_INSTRUMENT}
    - symbol: GOOD
      description: 12
      priceScale: 100
      tickSize: "0.001"
      priceLimits: { low: "0.01", high: "0.99" }`,
        '  startingBalance: lots',
      ),
    );
    expect(problems.map((p) => p.path)).toEqual(
      expect.arrayContaining([
        'sim.startingBalance',
        'sim.instruments[1].description',
        'sim.instruments[1].tickSize',
        'sim.instruments[1].symbol',
      ]),
    );
  });

  it('accepts a consistent sim section', () => {
    expect(problemsOf(simYaml(GOOD_INSTRUMENT))).toEqual([]);
  });

  it('tradebot config check lists them and exits 2', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tradebot-simcheck-')), 'sim.yaml');
    writeFileSync(file, BROKEN);
    const err: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => err.push(String(chunk)) > 0);
    expect(await runCli(['config', 'check', file])).toBe(2);
    const text = err.join('');
    expect(text).toContain('has 15 problems');
    expect(text).toContain('sim.instruments[0].tickSize: 0.001 is finer than priceScale 100 can express');
    expect(text).toContain('sim.users[1].username: "alice" is also the username of users[0]');
  });
});
