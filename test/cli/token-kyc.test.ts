// `tradebot token` and `tradebot kyc webhook register|serve` against the real simulator: scopes and expiry
// printed but never the token; typed errors and exit codes; the receiver's ready line, notifications and
// SIGINT shutdown.
import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { startSimHarness } from '../exchange/familya/helpers/sim.ts';
import type { SimHarness } from '../exchange/familya/helpers/sim.ts';
import { makeKeys } from '../exchange/familya/helpers/keys.ts';
import { makeSelfSignedCert, postHttps } from '../kyc/helpers/tls.ts';
import type { TestCert } from '../kyc/helpers/tls.ts';
import { captureOutput } from './helpers/output.ts';

let h: SimHarness;
let tls: TestCert | undefined;

beforeAll(async () => {
  tls = await makeSelfSignedCert();
  h = await startSimHarness({ wallClock: true, ...(tls === undefined ? {} : { kyc: `extraCaFile: ${tls.certFile}` }) });
});
afterAll(() => h.close());
afterEach(() => vi.restoreAllMocks());

function writeConfig(over: { privateKeyFile?: string; kyc?: string; noExchange?: boolean } = {}): string {
  const dir = mkdtempSync(path.join(h.keys.dir, 'cli-'));
  const file = path.join(dir, 'development.yaml');
  const exchange = `
exchange:
  apiUrl: ${h.exchange.apiUrl}
  authUrl: ${h.exchange.authUrl}
  gatewayUrl: ${h.exchange.gatewayUrl}
  familyA:
    clientId: ${h.exchange.familyA?.clientId}
    privateKeyFile: ${over.privateKeyFile ?? h.keys.privateKeyFile}
    participant: ${h.exchange.familyA?.participant}
${over.kyc ?? ''}`;
  writeFileSync(file, `logging: { level: warn }\n${over.noExchange === true ? '' : exchange}`);
  return file;
}

describe('tradebot token', () => {
  it('prints the scopes and expiry, never the token', async () => {
    const io = captureOutput();
    expect(await runCli(['token', '--config', writeConfig()])).toBe(0);
    expect(io.out()).toContain('Token obtained for client demo-bot');
    expect(io.out()).toMatch(/expires in: 180 s \(at \d{4}-\d\d-\d\dT/);
    expect(io.out()).toContain('read:l2marketdata');
    expect(io.out() + io.err()).not.toMatch(/eyJ[A-Za-z0-9_-]+\./);
  });

  it('prints one JSON line with --json', async () => {
    const io = captureOutput();
    expect(await runCli(['token', '--config', writeConfig(), '--json'])).toBe(0);
    const summary = JSON.parse(io.out()) as { expiresIn: number; scopes: string[]; tokenType: string };
    expect(summary).toMatchObject({ expiresIn: 180, tokenType: 'Bearer' });
    expect(summary.scopes).toContain('write:kyc');
    expect(io.out()).not.toContain('eyJ');
  });

  it('exits 1 with the OAuth error when the key does not match the onboarded one', async () => {
    const io = captureOutput();
    expect(await runCli(['token', '--config', writeConfig({ privateKeyFile: makeKeys().privateKeyFile })])).toBe(1);
    expect(io.err()).toContain('[FAMILY_A_TOKEN_REJECTED]');
    expect(io.err()).toContain('invalid_client');
  });

  it('exits 2 for a config without an exchange section or a missing key file', async () => {
    let io = captureOutput();
    expect(await runCli(['token', '--config', writeConfig({ noExchange: true })])).toBe(2);
    expect(io.err()).toContain('[CONFIG_NO_EXCHANGE]');
    vi.restoreAllMocks();
    io = captureOutput();
    expect(await runCli(['token', '--config', writeConfig({ privateKeyFile: '/nonexistent/key.pem' })])).toBe(2);
    expect(io.err()).toContain('[FAMILY_A_KEY_UNREADABLE]');
  });
});

describe('tradebot kyc webhook', () => {
  const webhookConfig = () => {
    const state = path.join(mkdtempSync(path.join(h.keys.dir, 'state-')), 'kyc.json');
    return writeConfig({
      kyc: `  kyc:\n    webhook: { host: 127.0.0.1, port: 0, certFile: ${tls?.certFile}, keyFile: ${tls?.keyFile}, stateFile: ${state} }\n`,
    });
  };

  it('serves until SIGINT, printing a ready line and one line per new notification; register validates it', async () => {
    const config = webhookConfig();
    const io = captureOutput();
    const serving = runCli(['kyc', 'webhook', 'serve', '--config', config]);
    const ready = JSON.parse(await io.waitForLine((l) => l.includes('kyc.webhook.ready'))) as { url: string };
    expect(ready.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/kyc\/webhook$/);

    expect(await runCli(['kyc', 'webhook', 'register', ready.url, '--config', config])).toBe(0);
    expect(io.out()).toContain(`KYC webhook registered: ${ready.url}`);

    // a forged notification for a user the exchange does not know prints nothing
    const forged = {
      externalId: 'u-7',
      status: 'CLOSED',
      decision: 'ACCEPT',
      subStatus: '',
      participantId: 'firms/demo/users/u7',
      account: 'firms/demo/accounts/u7',
    };
    expect((await postHttps(ready.url, forged, tls?.cert ?? '')).status).toBe(200);
    // a genuine one (the exchange's status of a verification it started), delivered twice, prints one line
    const client = h.clientFor(h.exchange.familyA?.participant, { now: () => Date.now() }).client;
    try {
      await client.kycVerify({ externalId: 'u-8', email: 'u8@example.com', firstName: 'U', lastName: 'Eight' });
      const status = await client.kycStatus('u-8');
      const { updateTime: _, ...body } = status;
      expect((await postHttps(ready.url, body, tls?.cert ?? '')).status).toBe(200);
      expect((await postHttps(ready.url, body, tls?.cert ?? '')).status).toBe(200);
      const line = JSON.parse(await io.waitForLine((l) => l.includes('kyc.notification'))) as Record<string, unknown>;
      expect(line).toMatchObject({ externalId: 'u-8', status: status.status, knownStatus: true });
    } finally {
      await client.close();
    }

    process.emit('SIGINT');
    expect(await serving).toBe(0);
    expect(
      io
        .out()
        .split('\n')
        .filter((l) => l.includes('kyc.notification')),
    ).toHaveLength(1);
    expect(io.out()).not.toContain('"externalId":"u-7"');
  });

  it('register refuses a non-https URL (exit 2) and reports an unreachable one (exit 1)', async () => {
    const config = webhookConfig();
    let io = captureOutput();
    expect(await runCli(['kyc', 'webhook', 'register', 'http://127.0.0.1:1/hook', '--config', config])).toBe(2);
    expect(io.err()).toContain('[FAMILY_A_INVALID_REQUEST]');
    vi.restoreAllMocks();
    io = captureOutput();
    expect(await runCli(['kyc', 'webhook', 'register', 'https://127.0.0.1:1/hook', '--config', config])).toBe(1);
    expect(io.err()).toContain('[FAMILY_A_REJECTED]');
  });

  it('serve needs exchange.kyc.webhook (exit 2)', async () => {
    const io = captureOutput();
    expect(await runCli(['kyc', 'webhook', 'serve', '--config', writeConfig()])).toBe(2);
    expect(io.err()).toContain('[KYC_NOT_CONFIGURED]');
  });
});
