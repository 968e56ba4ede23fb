/**
 * HTTP faults on the gateway's requests, decided per request: an injected error (429 with retry-after, or
 * a 5xx) answered BEFORE the request is processed, or, AFTER it was processed, a reply held back (past the
 * client's timeout) or cut off (the connection destroyed after half of the body). The last two are the
 * hard cases for a client: the order exists, but the client does not know it, and retries.
 *
 * A fault comes from an explicit queue (`next(kind, count, ...)`, consumed by the first matching requests,
 * for tests) or from the configured probabilities (soaks). Requests match by path prefix: the queue's own
 * prefix, else `sim.faults.paths` (default `/api/`, the trading, lookup and stream endpoints).
 */
import type { FaultStatus } from '../config.ts';
import { SimHttpError } from '../http/errors.ts';
import type { RequestContext } from '../http/router.ts';
import type { ReplyFault } from '../http/server.ts';
import type { Random } from '../activity/random.ts';
import type { FaultStats } from './stats.ts';

export interface HttpFaultProbabilities {
  errorProbability: number;
  errorStatuses: readonly FaultStatus[];
  delayProbability: number;
  delayMs: number;
  resetProbability: number;
}

interface Queued {
  remaining: number;
  /** Path prefix; undefined: the configured paths. */
  path: string | undefined;
  status?: FaultStatus;
  delayMs?: number;
}

type Kind = 'error' | 'delay' | 'reset';

/** The error a fault answers with, in the gateway's error shape once rendered. */
export function injectedError(status: FaultStatus): SimHttpError {
  switch (status) {
    case 429:
      return new SimHttpError('RESOURCE_EXHAUSTED', 'injected fault: rate limited, retry later', { 'retry-after': '1' });
    case 500:
      return new SimHttpError('INTERNAL', 'injected fault: internal error');
    case 503:
      return new SimHttpError('UNAVAILABLE', 'injected fault: service unavailable');
    case 504:
      return new SimHttpError('DEADLINE_EXCEEDED', 'injected fault: upstream deadline exceeded');
  }
}

export class HttpFaults {
  probabilities: HttpFaultProbabilities;
  private readonly queues: Record<Kind, Queued[]> = { error: [], delay: [], reset: [] };

  constructor(
    private readonly paths: readonly string[],
    probabilities: HttpFaultProbabilities,
    private readonly random: Random,
    private readonly stats: FaultStats,
  ) {
    this.probabilities = probabilities;
  }

  /** Queues a fault for the next `count` requests under `path` (default: the configured paths). */
  next(kind: Kind, count: number, options: { path?: string | undefined; status?: FaultStatus; delayMs?: number } = {}): void {
    if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`fault count must be a whole number >= 1, got ${count}`);
    this.queues[kind].push({
      remaining: count,
      path: options.path,
      ...(options.status === undefined ? {} : { status: options.status }),
      ...(options.delayMs === undefined ? {} : { delayMs: options.delayMs }),
    });
  }

  clear(): void {
    for (const queue of Object.values(this.queues)) queue.length = 0;
  }

  /** Before processing: throws the injected error when one is due. */
  before(context: RequestContext): void {
    const queued = this.take('error', context.path);
    const p = this.probabilities;
    if (queued === undefined && !(p.errorProbability > 0 && this.matches(context.path) && this.random.chance(p.errorProbability))) return;
    const status = queued?.status ?? (p.errorStatuses[this.random.int(0, p.errorStatuses.length - 1)] as FaultStatus);
    this.stats.errors += 1;
    throw injectedError(status);
  }

  /** After processing: how to mis-deliver this reply, if at all. */
  reply(context: RequestContext): ReplyFault | undefined {
    const p = this.probabilities;
    const reset =
      this.take('reset', context.path) !== undefined ||
      (p.resetProbability > 0 && this.matches(context.path) && this.random.chance(p.resetProbability));
    if (reset) {
      this.stats.resets += 1;
      return { reset: true };
    }
    const delayed = this.take('delay', context.path);
    if (delayed !== undefined || (p.delayProbability > 0 && this.matches(context.path) && this.random.chance(p.delayProbability))) {
      this.stats.delays += 1;
      return { delayMs: delayed?.delayMs ?? p.delayMs };
    }
    return undefined;
  }

  private matches(path: string, prefix?: string): boolean {
    return prefix === undefined ? this.paths.some((p) => path.startsWith(p)) : path.startsWith(prefix);
  }

  private take(kind: Kind, path: string): Queued | undefined {
    const queue = this.queues[kind];
    const index = queue.findIndex((q) => this.matches(path, q.path));
    if (index < 0) return undefined;
    const queued = queue[index] as Queued;
    queued.remaining -= 1;
    if (queued.remaining <= 0) queue.splice(index, 1);
    return queued;
  }
}
