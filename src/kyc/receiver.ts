/**
 * The KYC webhook receiver: an HTTPS server that accepts the exchange's KYC notifications, answers at
 * once, drops duplicates (remembered in a state file across restarts) and emits the rest as an RxJS
 * Observable. Its TLS private key file must be accessible to its owner only, like the family A key
 * (src/exchange/auth/secret-file.ts): a key group or others can read stops the start with
 * KYC_TLS_KEY_PERMISSIONS and `chmod 600 <file>`, before anything listens.
 *
 *   const receiver = await startKycReceiver({ ...config.exchange.kyc.webhook, logger });
 *   receiver.notifications$.subscribe((event) => onKyc(event.notification));
 *   await client.registerKycWebhook(publicUrlOf(receiver));
 *   ...
 *   await receiver.close();   // stops listening, finishes queued notifications, completes the Observable
 */
import { readFile } from 'node:fs/promises';
import type { Observable } from 'rxjs';
import type { Logger } from 'pino';
import { silentLogger } from '../logging/logger.ts';
import { permissionsFix, readSecretFile } from '../exchange/auth/secret-file.ts';
import { KycError, KycErrorCode } from './errors.ts';
import { KycProcessor } from './processor.ts';
import type { KycEvent, KycStats } from './processor.ts';
import { KycStateStore } from './state-store.ts';
import { startWebhookServer } from './webhook-server.ts';

export interface KycReceiverOptions {
  /** Interface to listen on. Default 0.0.0.0. */
  readonly host?: string;
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

export async function startKycReceiver(options: KycReceiverOptions): Promise<KycReceiver> {
  const logger = options.logger ?? silentLogger();
  const key = readTlsKey(options.keyFile);
  const cert = await readCertificate(options.certFile);
  const store = await KycStateStore.open(options.stateFile);
  const processor = new KycProcessor(store, logger);
  const server = await startWebhookServer({
    host: options.host ?? '0.0.0.0',
    port: options.port,
    path: options.path ?? '/kyc/webhook',
    cert,
    key,
    logger,
    now: options.now ?? (() => Date.now()),
    onNotification: (notification, receivedAt) => processor.accept(notification, receivedAt),
    onInvalid: () => processor.countInvalid(),
  });
  logger.info({ url: server.url, stateFile: options.stateFile, known: store.size }, 'KYC webhook receiver listening');
  let closing: Promise<void> | undefined;
  return {
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
