/**
 * The Redis connections of a queued sweep's coordinator or worker (ioredis, handed to BullMQ) and the watch
 * over them. Every connection retries on its own (BullMQ's requirement: `maxRetriesPerRequest: null`, so
 * commands wait for the reconnection instead of failing); the watch turns a Redis that stays away into an
 * error instead of a wait without end: when any connection has not been ready for `timeoutMs` (from the
 * start, or since it dropped), `lost` rejects with SWEEP_QUEUE_UNREACHABLE, naming the URL (never its
 * password) and the last connection error. `onReconnect` runs when every connection is ready again after
 * one dropped (the coordinator then checks that Redis still has its jobs: a restarted Redis may have lost them).
 */
import { Redis } from 'ioredis';
import { TradebotError } from '../../../src/errors.ts';
import type { QueueUrl } from './queue-url.ts';

/** A connection with the options BullMQ needs; `role` names it in Redis's CLIENT LIST. */
export function connectRedis(url: QueueUrl, role: string): Redis {
  return new Redis({
    host: url.host,
    port: url.port,
    db: url.db,
    ...(url.username === undefined ? {} : { username: url.username }),
    ...(url.password === undefined ? {} : { password: url.password }),
    ...(url.tls ? { tls: { servername: url.host } } : {}),
    connectionName: `tradebot-${role}`,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    // reconnect soon, then every 2 s at most; the watch decides when waiting has lasted too long
    retryStrategy: (times: number) => Math.min(100 * times, 2000),
  });
}

export interface RedisWatchOptions {
  readonly url: QueueUrl;
  /** How long a connection may stay down before `lost` rejects (ms); undefined: wait for it without end (a worker). */
  readonly timeoutMs?: number;
  /** Every connection ready again after a drop. */
  readonly onReconnect?: () => void;
  /** A connection dropped (for progress notes). */
  readonly onDrop?: (reason: string) => void;
}

/** Watches `clients` (added with `watch`); `lost` rejects when one stays down longer than the timeout. */
export class RedisWatch {
  readonly lost: Promise<never>;
  private fail!: (error: TradebotError) => void;
  private readonly down = new Set<Redis>();
  private timer: NodeJS.Timeout | undefined;
  private lastError = 'no answer yet';
  private dropped = false;
  private closed = false;

  constructor(private readonly options: RedisWatchOptions) {
    this.lost = new Promise<never>((_resolve, reject) => {
      this.fail = reject;
    });
    // whoever races `lost` handles it; nobody may be racing it when the watch is closed
    this.lost.catch(() => undefined);
  }

  watch(client: Redis): Redis {
    if (client.status !== 'ready') this.markDown(client);
    client.on('ready', () => this.markUp(client));
    client.on('error', (error: Error) => {
      this.lastError = error.message;
    });
    client.on('close', () => this.markDown(client));
    client.on('end', () => this.markDown(client));
    return client;
  }

  private markDown(client: Redis): void {
    if (this.closed || this.down.has(client)) return;
    const first = this.down.size === 0;
    this.down.add(client);
    if (!first) return;
    if (this.dropped) this.options.onDrop?.(this.lastError);
    if (this.options.timeoutMs === undefined) return;
    this.timer = setTimeout(() => this.expire(), this.options.timeoutMs);
    this.timer.unref();
  }

  private markUp(client: Redis): void {
    // until a connection error says more, a drop after this is a closed connection
    this.lastError = 'connection closed';
    if (!this.down.delete(client) || this.down.size > 0 || this.closed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dropped) this.options.onReconnect?.();
    this.dropped = true;
  }

  private expire(): void {
    if (this.closed) return;
    const seconds = Math.round((this.options.timeoutMs ?? 0) / 100) / 10;
    this.fail(
      new TradebotError(
        'SWEEP_QUEUE_UNREACHABLE',
        `Redis at ${this.options.url.text} has not answered for ${seconds} s (${this.lastError}): ` +
          'check that it runs and that this machine reaches it',
        { kind: 'connectivity' },
      ),
    );
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }
}
