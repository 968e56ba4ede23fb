/**
 * Bench "kyc-receiver" (notifications/s): how fast the KYC webhook receiver processes notifications (confirmed,
 * deduplicated, persisted with fsync, emitted) compared with how fast it answers them. NOTIFICATIONS distinct
 * users are posted over HTTPS (IN_FLIGHT requests at a time, keep-alive) to a receiver on loopback with a fresh
 * state file; the exchange's confirmation is answered in-process (a map of the facts it sent), so the figure is
 * the receiver's own. value: notifications processed per second (first post to the last one emitted); baseline:
 * notifications answered per second in the same run (first post to the last answer). A ratio near 1 means
 * processing keeps up with answering. Before the append-only state file (issue 21) it fell to ~70/s at 5000 users.
 */
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { writeFileSync } from 'node:fs';
import type { BenchResult } from './bench-result.ts';
import { startKycReceiver } from '../src/kyc/index.ts';
import type { KycNotification } from '../src/domain/index.ts';

const NOTIFICATIONS = 5000;
const IN_FLIGHT = 64;

async function tlsFiles(dir: string): Promise<{ certFile: string; keyFile: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  writeFileSync(certFile, pems.cert);
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  return { certFile, keyFile, cert: pems.cert };
}

function post(agent: https.Agent, url: string, body: string, ca: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      { method: 'POST', agent, ca, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export default async function bench(): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-bench-kyc-'));
  const tls = await tlsFiles(dir);
  const exchange = new Map<string, KycNotification>();
  const receiver = await startKycReceiver({
    port: 0,
    certFile: tls.certFile,
    keyFile: tls.keyFile,
    stateFile: path.join(dir, 'state.jsonl'),
    confirm: async (id) => exchange.get(id),
  });
  const notifications = Array.from({ length: NOTIFICATIONS }, (_, i): KycNotification => {
    const n = { externalId: `user-${i}`, status: 'OPEN', decision: '', subStatus: 'documents', participantId: '', account: '' };
    exchange.set(n.externalId, n);
    return n;
  });
  let emitted = 0;
  let lastEmit = 0;
  receiver.notifications$.subscribe(() => {
    emitted++;
    lastEmit = performance.now();
  });
  const agent = new https.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const start = performance.now();
  let next = 0;
  let failed = 0;
  const worker = async () => {
    for (let i = next++; i < notifications.length; i = next++) {
      if ((await post(agent, receiver.url, JSON.stringify(notifications[i]), tls.cert)) !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const answered = performance.now();
  await receiver.idle();
  const stats = receiver.stats;
  await receiver.close();
  agent.destroy();
  rmSync(dir, { recursive: true, force: true });
  if (failed > 0 || emitted !== NOTIFICATIONS)
    throw new Error(`kyc-receiver: ${failed} posts failed, ${emitted} of ${NOTIFICATIONS} emitted`);
  const processedPerSecond = NOTIFICATIONS / ((Math.max(lastEmit, answered) - start) / 1000);
  const answeredPerSecond = NOTIFICATIONS / ((answered - start) / 1000);
  return {
    bench: 'kyc-receiver',
    unit: 'notifications/s',
    value: Math.round(processedPerSecond),
    baseline: 'answered/s (same run)',
    baselineValue: Math.round(answeredPerSecond),
    ratio: Number((processedPerSecond / answeredPerSecond).toFixed(3)),
    notifications: NOTIFICATIONS,
    stateWrites: stats.stateWrites,
  };
}
