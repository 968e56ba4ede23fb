// KYC webhook receiver over real HTTPS (self-signed cert from the selfsigned package): immediate 2xx, dedupe
// by user, state persisted across restarts, unknown statuses passed on, bad bodies refused with 400 while
// serving on; a TLS key file that group or others can read refused before anything listens. The receiver
// confirms every notification with the exchange; here the exchange's side is a map of the facts it last
// notified per user (what GET /v1/kyc/status would answer: `notify` sets it, then posts). The confirmation
// against the real embedded exchange, and forged notifications, are in authenticity.test.ts.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KycErrorCode, startKycReceiver } from '../../src/kyc/index.ts';
import type { KycEvent, KycReceiver } from '../../src/kyc/index.ts';
import type { KycNotification } from '../../src/domain/index.ts';
import { makeSelfSignedCert, postHttps } from './helpers/tls.ts';
import type { TestCert } from './helpers/tls.ts';

const notification = (over: Record<string, string> = {}): KycNotification => ({
  externalId: 'user-1',
  decision: '',
  status: 'OPEN',
  subStatus: '',
  participantId: '',
  account: '',
  ...over,
});

/** The last line recording `externalId` as latest in a version 3 state file. */
function latestIn(file: string, externalId: string): Record<string, unknown> | undefined {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return lines.filter((l) => l['externalId'] === externalId && l['latest'] === true).at(-1);
}

/** The exchange's facts per user: what the receiver's confirmation reads. */
const exchange = new Map<string, KycNotification>();
const confirm = async (externalId: string): Promise<KycNotification | undefined> => exchange.get(externalId);

describe('KYC webhook receiver', () => {
  let tls: TestCert;
  let dir: string;
  const running: KycReceiver[] = [];
  /** The exchange's facts become `body`'s, then it is delivered to `url`. */
  const notify = (url: string, body: KycNotification) => {
    exchange.set(body.externalId, body);
    return postHttps(url, body, tls.cert);
  };

  beforeAll(async () => {
    tls = await makeSelfSignedCert();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.close()));
  });

  async function start(
    stateFile = path.join(dir, 'state.json'),
    now = () => 1_767_225_600_000,
  ): Promise<{ receiver: KycReceiver; events: KycEvent[] }> {
    const receiver = await startKycReceiver({
      host: '127.0.0.1',
      port: 0,
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      stateFile,
      now,
      confirm,
    });
    running.push(receiver);
    const events: KycEvent[] = [];
    receiver.notifications$.subscribe((event) => events.push(event));
    return { receiver, events };
  }

  const freshDir = () => {
    exchange.clear();
    dir = mkdtempSync(path.join(tmpdir(), 'tradebot-kyc-'));
    return dir;
  };

  it('answers 200 at once and emits the notification', async () => {
    freshDir();
    const { receiver, events } = await start();
    expect(receiver.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/kyc\/webhook$/);
    const res = await notify(
      receiver.url,
      notification({ status: 'CLOSED', decision: 'ACCEPT', participantId: 'firms/f/users/u', account: 'firms/f/accounts/a' }),
    );
    expect(res).toEqual({ status: 200, body: { received: true } });
    await receiver.idle();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      notification: {
        externalId: 'user-1',
        status: 'CLOSED',
        decision: 'ACCEPT',
        participantId: 'firms/f/users/u',
        account: 'firms/f/accounts/a',
      },
      receivedAt: 1_767_225_600_000,
      knownStatus: true,
      previous: undefined,
    });
  });

  it('emits the same externalId + status + decision only once', async () => {
    freshDir();
    const { receiver, events } = await start();
    const body = notification({ status: 'ON_HOLD', decision: 'REVIEW' });
    const answers = await Promise.all([notify(receiver.url, body), notify(receiver.url, body)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    await notify(receiver.url, body);
    await receiver.idle();
    expect(events).toHaveLength(1);
    expect(receiver.stats).toMatchObject({ received: 3, duplicates: 2, emitted: 1 });
  });

  it('emits a change of status or decision for the same user, with the previous notification', async () => {
    freshDir();
    const { receiver, events } = await start();
    await notify(receiver.url, notification({ status: 'OPEN' }));
    await notify(receiver.url, notification({ status: 'CLOSED', decision: 'REJECT' }));
    await notify(receiver.url, notification({ externalId: 'user-2', status: 'OPEN' }));
    await receiver.idle();
    expect(events.map((e) => [e.notification.externalId, e.notification.status, e.notification.decision])).toEqual([
      ['user-1', 'OPEN', ''],
      ['user-1', 'CLOSED', 'REJECT'],
      ['user-2', 'OPEN', ''],
    ]);
    expect(events[1]?.previous).toMatchObject({ status: 'OPEN', decision: '' });
  });

  it('remembers what it handled across a restart (append-only state file)', async () => {
    freshDir();
    const stateFile = path.join(dir, 'nested', 'kyc-state.json');
    const first = await start(stateFile);
    await notify(first.receiver.url, notification({ status: 'CLOSED', decision: 'ACCEPT' }));
    await first.receiver.close();
    expect(first.events).toHaveLength(1);
    expect(readFileSync(stateFile, 'utf8').split('\n')[0]).toBe('{"version":3}');
    expect(latestIn(stateFile, 'user-1')).toMatchObject({ status: 'CLOSED', decision: 'ACCEPT', receivedAt: '2026-01-01T00:00:00.000Z' });
    expect(readdirSync(path.dirname(stateFile))).toEqual(['kyc-state.json']);

    const second = await start(stateFile);
    await notify(second.receiver.url, notification({ status: 'CLOSED', decision: 'ACCEPT' }));
    await second.receiver.idle();
    expect(second.events).toHaveLength(0);
    await notify(second.receiver.url, notification({ status: 'CLOSED', decision: 'REVIEW' }));
    await second.receiver.idle();
    expect(second.events.map((e) => e.notification.decision)).toEqual(['REVIEW']);
  });

  it('drops a repeat that comes back after newer news (A, B, A), also across a restart', async () => {
    freshDir();
    const stateFile = path.join(dir, 'state.json');
    const first = await start(stateFile);
    for (const status of ['OPEN', 'ON_HOLD', 'OPEN', 'ON_HOLD']) await notify(first.receiver.url, notification({ status }));
    await first.receiver.close();
    expect(first.events.map((e) => e.notification.status)).toEqual(['OPEN', 'ON_HOLD']);
    expect(first.receiver.stats).toMatchObject({ received: 4, duplicates: 2, emitted: 2 });

    const second = await start(stateFile);
    await notify(second.receiver.url, notification({ status: 'OPEN' }));
    await notify(second.receiver.url, notification({ status: 'ON_HOLD' }));
    await second.receiver.idle();
    expect(second.events).toHaveLength(0);
    expect(second.receiver.stats.duplicates).toBe(2);
  });

  it('never moves a user back: a late retry of an earlier step after CLOSED, or a lagging answer, is not emitted', async () => {
    freshDir();
    const stateFile = path.join(dir, 'state.json');
    const { receiver, events } = await start(stateFile);
    await notify(receiver.url, notification({ status: 'ON_HOLD', subStatus: 'documents' }));
    await notify(
      receiver.url,
      notification({ status: 'CLOSED', decision: 'ACCEPT', participantId: 'firms/f/users/u', account: 'firms/f/accounts/a' }),
    );
    // the OPEN delivery failed at first; the exchange retries it after the verification closed: the exchange
    // confirms CLOSED, already handled
    await postHttps(receiver.url, notification({ status: 'OPEN' }), tls.cert);
    // an exchange answer about an earlier step than recorded (a lagging answer) is stale: logged, not emitted
    await notify(receiver.url, notification({ status: 'OPEN' }));
    await receiver.idle();
    expect(events.map((e) => e.notification.status)).toEqual(['ON_HOLD', 'CLOSED']);
    expect(receiver.stats).toMatchObject({ received: 4, stale: 1, duplicates: 1, emitted: 2, unconfirmed: 1 });
    expect(latestIn(stateFile, 'user-1')).toMatchObject({ status: 'CLOSED', decision: 'ACCEPT' });
    // a decision revised after closing is news; an unknown status always is
    await notify(receiver.url, notification({ status: 'CLOSED', decision: 'REVIEW' }));
    await notify(receiver.url, notification({ status: 'REOPENED_BY_COMPLIANCE' }));
    await receiver.idle();
    expect(events.map((e) => [e.notification.status, e.notification.decision])).toEqual([
      ['ON_HOLD', ''],
      ['CLOSED', 'ACCEPT'],
      ['CLOSED', 'REVIEW'],
      ['REOPENED_BY_COMPLIANCE', ''],
    ]);
  });

  it('loads a version 1 state file (latest notification only) and keeps deduplicating against it', async () => {
    freshDir();
    const stateFile = path.join(dir, 'state.json');
    writeFileSync(
      stateFile,
      JSON.stringify({
        version: 1,
        users: {
          'user-1': {
            status: 'CLOSED',
            decision: 'ACCEPT',
            subStatus: '',
            participantId: '',
            account: '',
            receivedAt: '2026-01-01T00:00:00.000Z',
          },
        },
      }),
    );
    const { receiver, events } = await start(stateFile);
    await notify(receiver.url, notification({ status: 'CLOSED', decision: 'ACCEPT' }));
    await notify(receiver.url, notification({ status: 'OPEN' }));
    await receiver.idle();
    expect(events).toHaveLength(0);
    expect(receiver.stats).toMatchObject({ duplicates: 1, stale: 1 });
    // rewritten as version 3 at open
    expect(readFileSync(stateFile, 'utf8').split('\n')[0]).toBe('{"version":3}');
  });

  it('cuts a torn last line (a crash in the middle of an append) and keeps the lines before it', async () => {
    freshDir();
    const stateFile = path.join(dir, 'state.jsonl');
    const line = {
      externalId: 'user-1',
      status: 'OPEN',
      decision: '',
      subStatus: '',
      participantId: '',
      account: '',
      receivedAt: '',
      latest: true,
    };
    writeFileSync(stateFile, `{"version":3}\n${JSON.stringify(line)}\n{"externalId":"user-2","sta`);
    const { receiver, events } = await start(stateFile);
    expect(readFileSync(stateFile, 'utf8')).toBe(`{"version":3}\n${JSON.stringify(line)}\n`);
    await notify(receiver.url, notification({ status: 'OPEN' }));
    await receiver.idle();
    expect(events).toHaveLength(0);
    writeFileSync(stateFile, `{"version":3}\nnot json\n${JSON.stringify(line)}\n`);
    await expect(start(stateFile)).rejects.toMatchObject({ code: KycErrorCode.StateCorrupt, message: expect.stringContaining('line 2') });
  });

  it('passes an unknown decision on like an unknown status (never refused and lost)', async () => {
    freshDir();
    const { receiver, events } = await start();
    const res = await notify(receiver.url, notification({ status: 'CLOSED', decision: 'ESCALATE' }));
    expect(res.status).toBe(200);
    await receiver.idle();
    expect(events.map((e) => e.notification.decision)).toEqual(['ESCALATE']);
  });

  it('passes an unknown status on, flagged', async () => {
    freshDir();
    const { receiver, events } = await start();
    const res = await notify(receiver.url, notification({ status: 'ESCALATED_TO_COMPLIANCE', subStatus: 'manual' }));
    expect(res.status).toBe(200);
    await receiver.idle();
    expect(events).toHaveLength(1);
    expect(events[0]?.knownStatus).toBe(false);
    expect(events[0]?.notification.status).toBe('ESCALATED_TO_COMPLIANCE');
  });

  it('refuses bad bodies with 400 and a clear message, and keeps serving', async () => {
    freshDir();
    const { receiver, events } = await start();
    const notJson = await postHttps(receiver.url, '{"externalId": ', tls.cert);
    expect(notJson.status).toBe(400);
    expect((notJson.body as { error: string }).error).toMatch(/^invalid KYC notification: body: expected JSON/);
    const badType = await postHttps(receiver.url, { externalId: 42, status: 'OPEN' }, tls.cert);
    expect(badType.status).toBe(400);
    expect((badType.body as { error: string }).error).toContain('externalId: expected a string');
    const array = await postHttps(receiver.url, '[1,2]', tls.cert);
    expect(array.status).toBe(400);

    const ok = await notify(receiver.url, notification());
    expect(ok.status).toBe(200);
    await receiver.idle();
    expect(events).toHaveLength(1);
    expect(receiver.stats.invalid).toBe(3);
  });

  it('answers a validation request without externalId with 200 and emits nothing', async () => {
    freshDir();
    const { receiver, events } = await start();
    expect(await postHttps(receiver.url, '', tls.cert)).toEqual({ status: 200, body: { received: true, test: true } });
    expect(await postHttps(receiver.url, {}, tls.cert)).toEqual({ status: 200, body: { received: true, test: true } });
    await receiver.idle();
    expect(events).toHaveLength(0);
  });

  it('answers 404 for another path, 405 for another method, 413 for a huge body', async () => {
    freshDir();
    const { receiver } = await start();
    expect((await postHttps(receiver.url.replace('/kyc/webhook', '/other'), notification(), tls.cert)).status).toBe(404);
    expect((await postHttps(receiver.url, '', tls.cert, 'PUT')).status).toBe(405);
    expect((await postHttps(receiver.url, 'x'.repeat(70 * 1024), tls.cert)).status).toBe(413);
  });

  it('still answers and emits when the state cannot be saved', async () => {
    freshDir();
    const stateFile = path.join(dir, 'state.json');
    const { receiver, events } = await start(stateFile);
    mkdirSync(stateFile);
    writeFileSync(path.join(stateFile, 'occupied'), 'x');
    expect((await notify(receiver.url, notification())).status).toBe(200);
    await receiver.idle();
    expect(events).toHaveLength(1);
    expect(receiver.stats.persistFailures).toBe(1);
  });

  it('refuses to start on a corrupt state file, naming it', async () => {
    freshDir();
    const stateFile = path.join(dir, 'state.json');
    writeFileSync(stateFile, '{"users": []}');
    await expect(start(stateFile)).rejects.toMatchObject({ code: KycErrorCode.StateCorrupt, message: expect.stringContaining(stateFile) });
  });

  it('refuses to start without readable TLS files', async () => {
    freshDir();
    const missing = path.join(dir, 'missing.pem');
    await expect(
      startKycReceiver({
        port: 0,
        host: '127.0.0.1',
        certFile: missing,
        keyFile: tls.keyFile,
        stateFile: path.join(dir, 's.json'),
        confirm,
      }),
    ).rejects.toMatchObject({
      code: KycErrorCode.TlsInvalid,
    });
    expect(existsSync(path.join(dir, 's.json'))).toBe(false);
  });

  it('refuses a missing key file with KYC_TLS_INVALID, naming it', async () => {
    freshDir();
    const missing = path.join(dir, 'missing-key.pem');
    await expect(
      startKycReceiver({
        port: 0,
        host: '127.0.0.1',
        certFile: tls.certFile,
        keyFile: missing,
        stateFile: path.join(dir, 's.json'),
        confirm,
      }),
    ).rejects.toMatchObject({
      code: KycErrorCode.TlsInvalid,
      message: expect.stringContaining(missing),
    });
  });

  describe.runIf(process.platform !== 'win32')('TLS key file permissions', () => {
    const keyWithMode = (name: string, mode: number): string => {
      const file = path.join(dir, name);
      copyFileSync(tls.keyFile, file);
      chmodSync(file, mode);
      return file;
    };
    const keyBody = () => tls.key.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));

    it.each([0o600, 0o400])('mode %s starts', async (mode) => {
      freshDir();
      const receiver = await startKycReceiver({
        host: '127.0.0.1',
        port: 0,
        certFile: tls.certFile,
        keyFile: keyWithMode('ok.pem', mode),
        stateFile: path.join(dir, 'state.json'),
        confirm,
      });
      running.push(receiver);
      expect((await notify(receiver.url, notification())).status).toBe(200);
    });

    it.each([0o644, 0o640, 0o604, 0o660, 0o606, 0o620])(
      'mode %s is refused with KYC_TLS_KEY_PERMISSIONS and `chmod 600 <file>`, before anything listens',
      async (mode) => {
        freshDir();
        const keyFile = keyWithMode(`bad-${mode.toString(8)}.pem`, mode);
        const stateFile = path.join(dir, 'state.json');
        const error = (await startKycReceiver({ host: '127.0.0.1', port: 0, certFile: tls.certFile, keyFile, stateFile, confirm }).then(
          () => undefined,
          (e: unknown) => e,
        )) as Error | undefined;
        expect(error).toMatchObject({ code: KycErrorCode.TlsKeyPermissions, kind: 'config' });
        expect(error?.message).toContain(`chmod 600 ${keyFile}`);
        expect(error?.message).toContain(`mode 0${mode.toString(8)}`);
        for (const line of keyBody()) expect(error?.message).not.toContain(line);
        expect(existsSync(stateFile)).toBe(false);
      },
    );

    it("checks the file a symlink points to, not the link's own mode", async () => {
      freshDir();
      const link = path.join(dir, 'link.pem');
      symlinkSync(keyWithMode('target.pem', 0o644), link);
      await expect(
        startKycReceiver({
          host: '127.0.0.1',
          port: 0,
          certFile: tls.certFile,
          keyFile: link,
          stateFile: path.join(dir, 'state.json'),
          confirm,
        }),
      ).rejects.toMatchObject({
        code: KycErrorCode.TlsKeyPermissions,
      });
    });
  });

  it('completes the Observable on close', async () => {
    freshDir();
    const { receiver } = await start();
    let completed = false;
    receiver.notifications$.subscribe({ complete: () => (completed = true) });
    await receiver.close();
    expect(completed).toBe(true);
  });
});
