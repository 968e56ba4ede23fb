// `tradebot config check`: ok for a good file; every problem with its path and exit 2 for a bad one.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';

function captureOutput() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => err.push(String(chunk)) > 0);
  return { out: () => out.join(''), err: () => err.join('') };
}

afterEach(() => vi.restoreAllMocks());

describe('tradebot config check', () => {
  it('accepts the shipped default config', async () => {
    const io = captureOutput();
    expect(await runCli(['config', 'check', 'config/sim.yaml'])).toBe(0);
    expect(io.out()).toContain('config/sim.yaml: ok');
  });

  it('lists every problem with its path and exits 2, without a stack trace', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tradebot-cli-')), 'bad.yaml');
    writeFileSync(file, 'logging:\n  level: loud\n  levle: info\n');
    const io = captureOutput();
    expect(await runCli(['config', 'check', file])).toBe(2);
    expect(io.err()).toContain('logging.level: expected one of trace, debug, info, warn, error, fatal, silent, got "loud"');
    expect(io.err()).toContain('logging.levle: unknown key; did you mean "level"?');
    expect(io.err()).toContain('[CONFIG_INVALID]');
    expect(io.err()).not.toMatch(/\n\s+at /);
  });

  it('exits non-zero with usage help for an unknown subcommand', async () => {
    const io = captureOutput();
    expect(await runCli(['nonsense'])).not.toBe(0);
    expect(io.err()).toContain("unknown command 'nonsense'");
  });
});

describe('tradebot config check: venue and stream transports', () => {
  it('reports a stream transport the exchange section cannot serve, naming the key and the fix (exit 2)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'tradebot-cli-')), 'env.yaml');
    writeFileSync(
      file,
      [
        'exchange:',
        '  apiUrl: https://api.dev.exchange.example',
        '  authUrl: https://auth.dev.exchange.example',
        '  gatewayUrl: https://rest.dev.exchange.example',
        '  familyA: { clientId: c1, privateKeyFile: key.pem, participant: firms/acme/users/bot }',
        'bot:',
        '  venue: familyA',
        '  streams: { marketData: grpc, orders: ndjson }',
        '',
      ].join('\n'),
    );
    const io = captureOutput();
    expect(await runCli(['config', 'check', file])).toBe(2);
    expect(io.err()).toContain(`${file} has 2 problems:`);
    expect(io.err()).toContain(
      "bot.streams.marketData: grpc streams market data from the exchange's gRPC endpoint, and exchange.grpcAddress is missing: " +
        'set exchange.grpcAddress (host:port), or set bot.streams.marketData: ndjson',
    );
    expect(io.err()).toContain(
      'bot.streams.orders: ndjson streams order updates from the trading gateway, which needs a gateway login, ' +
        'and exchange.gateway is missing: set bot.streams.orders: grpc, or add exchange.gateway',
    );
  });
});
