/**
 * The KYC webhook receiver: an HTTPS server (on loopback unless `host` says otherwise) that accepts the
 * exchange's KYC notifications, confirms each with the exchange before acting on it (confirmation.ts: the
 * spec defines no signature, so a notification is only a prompt to look the status up), drops duplicates
 * (remembered in an append-only state file across restarts) and emits the rest as an RxJS Observable.
 * `allowFrom` optionally limits the source addresses. Its TLS private key file must be accessible to its
 * owner only, like the family A key (src/exchange/auth/secret-file.ts): a key group or others can read stops
 * the start with KYC_TLS_KEY_PERMISSIONS and `chmod 600 <file>`, before anything listens.
 *
 *   const receiver = await startKycReceiver({ ...config.exchange.kyc.webhook, confirm: familyAConfirmation(client), logger });
 *   receiver.notifications$.subscribe((event) => onKyc(event.notification));
 *   await client.registerKycWebhook(publicUrlOf(receiver));
 *   ...
 *   await receiver.close();   // stops listening, finishes queued notifications, completes the Observable
 */
import { readFile } from 'node:fs/promises';
import { BlockList, isIP } from 'node:net';
import type { Observable } from 'rxjs';
import type { Logger } from 'pino';
import { silentLogger } from '../logging/logger.ts';
import { permissionsFix, readSecretFile } from '../exchange/auth/secret-file.ts';
import { KycError, KycErrorCode } from './errors.ts';
import { KycProcessor } from './processor.ts';
import type { KycEvent, KycStats } from './processor.ts';
import { KycStateStore } from './state-store.ts';
import { Confirmer, type ConfirmerOptions, type KycConfirm } from './confirmation.ts';
import { startWebhookServer } from './webhook-server.ts';

export interface KycReceiverOptions {
  /** Interface to listen on. Default 127.0.0.1 (loopback: set it to expose the receiver, e.g. behind a proxy). */
  readonly host?: string;
  /** Source addresses or CIDR ranges allowed to post (e.g. the exchange's egress addresses); default any. */
  readonly allowFrom?: readonly string[] | undefined;
  /** The exchange's facts for a user (familyAConfirmation(client)): every notification is checked against them. */
  readonly confirm: KycConfirm;
  readonly confirmation?: ConfirmerOptions;
  /** 0 picks a free port. */
  readonly port: number;
  /** Default /kyc/webhook. */
  readonly path?: string;
  /** PEM certificate chain and key files. */
  readonly certFile: string;
  readonly keyFile: string;
  /** JSON state file (created when missing). */
  readonly stateFile: string;
  readonly logger?: Logger;
  /** Local clock, ms. Default Date.now. */
  readonly now?: () => number;
}

export interface KycReceiver {
  /** The address it listens on. */
  readonly host: string;
  readonly port: number;
  /** The local URL (`https://127.0.0.1:<port>/kyc/webhook` when listening on every interface). */
  readonly url: string;
  /** Every new notification (duplicates dropped), in arrival order. Completes on close(). */
  readonly notifications$: Observable<KycEvent>;
  readonly stats: KycStats;
  /** Resolves when every notification accepted so far has been handled (persisted and emitted). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

function unreadable(file: string, what: string, systemCode: string | undefined, cause: unknown): KycError {
  return new KycError(KycErrorCode.TlsInvalid, `KYC webhook: cannot read the TLS ${what} file ${file} (${systemCode ?? 'error'})`, {
    cause,
    details: { file },
  });
}

async function readCertificate(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw unreadable(file, 'certificate', (error as NodeJS.ErrnoException).code, error);
  }
}

/** The TLS key, read only when its owner alone can access it. */
function readTlsKey(file: string): string {
  return readSecretFile(file, (problem) =>
    problem.kind === 'permissions'
      ? new KycError(KycErrorCode.TlsKeyPermissions, `KYC webhook: TLS key ${file}: ${permissionsFix(file, problem.mode)}`, {
          details: { file, mode: problem.mode },
        })
      : unreadable(file, 'key', problem.systemCode, problem.cause),
  );
}

/** `allowFrom` entries (addresses or CIDR ranges) as a BlockList; an entry that is neither is a config error. */
export function allowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
    if (family === 0 || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32) || bits === '')
      throw new KycError(
        KycErrorCode.AllowFromInvalid,
        `KYC webhook: allowFrom entry ${JSON.stringify(entry)} is not an address or a CIDR range such as "10.0.0.0/8"`,
      );
    list.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

export async function startKycReceiver(options: KycReceiverOptions): Promise<KycReceiver> {
  const logger = options.logger ?? silentLogger();
  const allowFrom = options.allowFrom === undefined ? undefined : allowList(options.allowFrom);
  const key = readTlsKey(options.keyFile);
  const cert = await readCertificate(options.certFile);
  const store = await KycStateStore.open(options.stateFile);
  if (store.cutBytes > 0)
    logger.warn({ stateFile: options.stateFile, bytes: store.cutBytes }, 'KYC state file: a torn last line (a crash mid-write) was cut');
  const processor = new KycProcessor(store, logger);
  const confirmer = new Confirmer(options.confirm, options.confirmation);
  const host = options.host ?? '127.0.0.1';
  const server = await startWebhookServer({
    host,
    allowFrom,
    port: options.port,
    path: options.path ?? '/kyc/webhook',
    cert,
    key,
    logger,
    now: options.now ?? (() => Date.now()),
    onNotification: async (notification, receivedAt) => {
      let confirmed;
      try {
        confirmed = await confirmer.confirm(notification.externalId);
      } catch (error) {
        processor.countConfirmFailure();
        logger.warn(
          { err: error, externalId: notification.externalId },
          'KYC notification not confirmed (the exchange did not answer): 503, the exchange retries',
        );
        return 'retry';
      }
      processor.accept(notification, confirmed, receivedAt);
      return 'ok';
    },
    onInvalid: () => processor.countInvalid(),
  });
  logger.info({ url: server.url, stateFile: options.stateFile, known: store.size }, 'KYC webhook receiver listening');
  let closing: Promise<void> | undefined;
  return {
    host,
    port: server.port,
    url: server.url,
    notifications$: processor.events$,
    get stats() {
      return processor.stats;
    },
    idle: () => processor.idle(),
    close: () => {
      closing ??= (async () => {
        await server.close();
        await processor.close();
      })();
      return closing;
    },
  };
}
