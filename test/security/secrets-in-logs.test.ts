/**
 * No secret reaches a log line, the run summary or the order journal. A full session runs at debug level with every record
 * (the bot's and the simulator's) captured: the live bot (`runLive`) against an environment config that
 * points at a simulator with market activity, so it exchanges a family A client assertion for a token,
 * logs in to the gateway WITH MFA (TOTP), streams and trades until its first fill; then the family A client
 * registers a KYC webhook and a verification is delivered to the HTTPS receiver. Every JWT minted in the
 * process (client assertions, family A access tokens, gateway access and refresh tokens) is captured at
 * its source by spying on jose's SignJWT, next to the private key PEM, the passwords, the TOTP secret and
 * the one-time codes of the session; the captured logs, the summary and the journal (written to the test's
 * temp folder, never into the working directory) are then searched for each. The TLS certificate of the
 * receiver comes from the `selfsigned` package, so nothing here depends on a system openssl.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { firstValueFrom, filter, timeout } from 'rxjs';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../src/config/index.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { runLive, type RunSummary } from '../../src/bot/live/run-live.ts';
import { startSim, type RunningSim } from '../../src/sim/simulator.ts';
import { createFamilyAClient } from '../../src/exchange/familya/index.ts';
import { generateTotp } from '../../src/exchange/auth/totp.ts';
import { familyAConfirmation, startKycReceiver, type KycConfirm, type KycReceiver } from '../../src/kyc/index.ts';
import { makeKeys, type TestKeys } from '../exchange/familya/helpers/keys.ts';
import { makeSelfSignedCert } from '../kyc/helpers/tls.ts';

const PASSWORD = 'Secret-Alice-Pass-2026!';
const BOB_PASSWORD = 'Secret-Bob-Pass-2026!';
const MFA_SECRET = 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU';
const SYMBOL = 'RAIN-NYC-2026-12-01';
/** Upper bound of the bot's run; it stops at its first fill. */
const RUN_SECONDS = 40;

/** Every log record, as written. */
class Capture extends Writable {
  readonly chunks: string[] = [];
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.chunks.push(String(chunk));
    callback();
  }
  text(): string {
    return this.chunks.join('');
  }
}

function simYaml(keys: TestKeys, caFile: string | undefined): string {
  return `
sim:
  ports: { api: 0, auth: 0, gateway: 0, grpc: 0 }
  startingBalance: "100000"
  gateway: { rateLimitPerSecond: 1000, heartbeatSeconds: 1 }
  kyc: { minStepSeconds: 0.05, maxStepSeconds: 0.1, tickMs: 25, holdProbability: "0",
    duplicateProbability: "0"${caFile === undefined ? '' : `, extraCaFile: ${caFile}`} }
  users:
    - { username: alice, password: "${PASSWORD}", participant: firms/demo/users/alice, accounts: [firms/demo/accounts/alice-main],
        mfaSecret: ${MFA_SECRET} }
    - { username: bob, password: "${BOB_PASSWORD}", participant: firms/demo/users/bob, accounts: [firms/demo/accounts/bob-main] }
  clients:
    - { clientId: secret-bot, publicKeyFile: ${keys.publicKeyFile}, participant: firms/demo/users/alice,
        scopes: [read:marketdata, read:l2marketdata, read:instruments, read:orders, write:orders, read:reports, read:positions,
          read:accounts, read:kyc, write:kyc] }
  instruments:
    - { symbol: ${SYMBOL}, priceScale: 100, fractionalQtyScale: 1, tickSize: "0.01",
        priceLimits: { low: "0.01", high: "0.99" }, fairValue: "0.42" }
  activity: { enabled: true, seed: 3, intervalMs: 50, makersPerInstrument: 2, takerProbability: "0.6", maxOrderQty: 5 }
bot: { strategy: market-maker,
  params: { symbols: [${SYMBOL}], halfSpread: "0.01", quoteQty: "1", maxInventory: "5", skewPerContract: "0.001" } }
risk: {}
`;
}

function botYaml(sim: RunningSim, keys: TestKeys, journal: string): string {
  return `
logging: { level: debug }
exchange:
  apiUrl: ${sim.ready.api}
  authUrl: ${sim.ready.auth}
  gatewayUrl: ${sim.ready.gateway}
  familyA: { clientId: secret-bot, privateKeyFile: ${keys.privateKeyFile}, participant: firms/demo/users/alice }
  gateway:
    username: alice
    password: \${SECRET_GATEWAY_PASSWORD}
    mfaSecret: \${SECRET_MFA}
bot:
  strategy: market-maker
  account: firms/demo/accounts/alice-main
  journal: ${JSON.stringify(journal)}
  params: { symbols: [${SYMBOL}], halfSpread: "0.01", quoteQty: "1", maxInventory: "5", skewPerContract: "0.001" }
risk:
  maxOrderQty: "10"
  maxOrderNotional: "10"
  maxPosition: "10"
  maxOpenOrders: 10
`;
}

describe('secrets in a debug-level session', () => {
  const capture = new Capture();
  const logger = createLogger({ level: 'debug', pretty: false, destination: capture });
  const minted: Promise<string>[] = [];
  const keys = makeKeys();
  const journalFile = path.join(keys.dir, 'journal.jsonl');
  let sim: RunningSim;
  let receiver: KycReceiver;
  /** The receiver confirms notifications through the family A client made after the run. */
  let confirmWith: KycConfirm = async () => {
    throw new Error('no family A client yet');
  };
  let summary: RunSummary;
  let started = 0;

  beforeAll(async () => {
    const sign = SignJWT.prototype.sign;
    vi.spyOn(SignJWT.prototype, 'sign').mockImplementation(function (this: SignJWT, ...args: Parameters<SignJWT['sign']>) {
      const token = sign.apply(this, args);
      minted.push(token);
      return token;
    });
    const tls = await makeSelfSignedCert(mkdtempSync(path.join(keys.dir, 'tls-')));
    const simConfig = parseConfig(simYaml(keys, tls.certFile), { env: {} }).sim;
    if (simConfig === undefined) throw new Error('no sim section');
    sim = await startSim(simConfig, { logger: logger.child({ component: 'sim' }) });
    receiver = await startKycReceiver({
      host: '127.0.0.1',
      port: 0,
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      stateFile: path.join(tls.dir, 'state.json'),
      logger: logger.child({ component: 'kyc-receiver' }),
      confirm: (externalId) => confirmWith(externalId),
    });
    // the order journal in the test's temp folder (against an environment it would default to .tradebot/ in the working directory)
    const config = parseConfig(botYaml(sim, keys, journalFile), { env: { SECRET_GATEWAY_PASSWORD: PASSWORD, SECRET_MFA: MFA_SECRET } });

    // run until the bot's first fill on the exchange (streams, orders, executions all logged at debug), at most RUN_SECONDS
    const filled = new Promise<string>((resolve) => {
      const subscription = sim.core.events$.subscribe((event) => {
        if (
          event.kind !== 'execution' ||
          event.execution.order.account !== 'firms/demo/accounts/alice-main' ||
          event.execution.lastQty === 0
        )
          return;
        subscription.unsubscribe();
        resolve('first fill');
      });
    });
    started = Date.now();
    summary = await runLive({ config, logger, durationSeconds: RUN_SECONDS, stopSignal: filled });

    // KYC: register the receiver and have one verification delivered to it.
    const familyA = createFamilyAClient(config.exchange ?? (undefined as never), { logger });
    confirmWith = familyAConfirmation(familyA.client);
    try {
      const registered = await familyA.client.registerKycWebhook(receiver.url);
      expect(registered.validated, registered.message).toBe(true);
      const closed = firstValueFrom(
        receiver.notifications$.pipe(
          filter((e) => e.notification.status === 'CLOSED'),
          timeout(15_000),
        ),
      );
      await familyA.client.kycVerify({ externalId: 'secret-kyc-1', email: 'kyc@example.com', firstName: 'K', lastName: 'Y' });
      await closed;
    } finally {
      await familyA.client.close();
    }
  }, 90_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    await receiver?.close();
    await sim?.close();
  });

  /** The journal as the clean stop left it: compacted, the history kept as `.prev`. */
  const journalText = () => `${readFileSync(journalFile, 'utf8')}\n${readFileSync(`${journalFile}.prev`, 'utf8')}`;
  /** The logs, the summary and the order journal the session wrote, where no secret may appear. */
  const haystack = () => `${capture.text()}\n${JSON.stringify(summary)}\n${journalText()}`;

  it('the session did what it should, at debug level', () => {
    const text = capture.text();
    expect(text).toContain('"level":"debug"');
    expect(summary.orders, 'the bot traded').toBeGreaterThan(0);
    expect(text).toMatch(/family A access token issued/);
    expect(sim.kyc.deliveryStats.delivered).toBeGreaterThan(0);
    expect(minted.length, 'assertions and tokens were minted').toBeGreaterThan(3);
    expect(summary.journal.file, 'the journal went to the temp folder, not into the working directory').toContain(journalFile);
    expect(journalText()).toContain('"type":"request"');
  });

  it('no JWT minted in the session (assertions, access and refresh tokens) appears, whole or in part', async () => {
    const tokens = await Promise.all(minted);
    const text = haystack();
    const kinds = new Set<string>();
    for (const token of tokens) {
      const [header = '', payload = '', signature = ''] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      kinds.add(String(claims['typ'] ?? (claims['scope'] !== undefined ? 'family A access' : 'assertion')));
      expect(text.includes(token), 'a whole token').toBe(false);
      expect(text.includes(signature), 'a token signature').toBe(false);
      expect(text.includes(`${header}.${payload}`), 'a token without its signature').toBe(false);
    }
    expect([...kinds].sort()).toEqual(['access', 'assertion', 'family A access', 'refresh']);
    expect(text, 'anything shaped like a JWT').not.toMatch(/eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/);
  });

  it('neither the private key PEM nor any line of its body appears', () => {
    const text = haystack();
    const body = keys.privatePem.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));
    expect(text).not.toContain('PRIVATE KEY');
    for (const line of body) expect(text.includes(line), 'a PEM line').toBe(false);
    expect(text.includes(body.join(''))).toBe(false);
  });

  it('no password, TOTP secret or one-time code of the session appears', () => {
    const text = haystack();
    for (const secret of [PASSWORD, BOB_PASSWORD, MFA_SECRET]) expect(text.includes(secret), 'a password or the TOTP secret').toBe(false);
    expect(text).not.toContain('otpauth://');
    const codes = new Set<string>();
    for (let t = started - 60_000; t <= Date.now() + 60_000; t += 30_000) codes.add(generateTotp(MFA_SECRET, t));
    for (const code of codes) expect(text.includes(`"${code}"`), 'a one-time code as a logged value').toBe(false);
  });
});
