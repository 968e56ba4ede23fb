/**
 * The fault injector of one running simulator, driven from `sim.faults` (probabilities and periods, for
 * soaks and `tradebot sim`) and from tests through `RunningSim.faults` (explicit, counted faults):
 *
 *   sim.faults.dropStreams();                    // end every open NDJSON and gRPC stream now
 *   sim.faults.dropStreamsEvery(5);              // ... and every 5 s (undefined stops)
 *   sim.faults.stallStreams();                   // open streams go silent but stay connected
 *   sim.faults.failNext(3, { status: 503 });     // the next 3 /api/ requests answer 503 unprocessed
 *   sim.faults.delayNext(1, 2000, { path: '/api/v1beta1/insert_order' });  // processed, answered 2 s late
 *   sim.faults.resetNext(1, { path: '/api/v1beta1/insert_order' });        // processed, connection cut mid-body
 *   sim.faults.garbleOrderStreams({ duplicateProbability: 0.3, reorderProbability: 0.3 });  // executions
 *   sim.faults.garbleMarketData({ duplicateProbability: 0.3, reorderProbability: 0.3 });    // book updates
 *   sim.faults.stats;                            // what was injected so far
 *
 * With nothing set, every request and stream takes the normal path. Timers are unref'd and end with stop().
 */
import type { Logger } from 'pino';
import type { FaultStatus, SimFaultsConfig } from '../config.ts';
import type { HttpFaultHooks } from '../http/server.ts';
import type { StreamSink } from '../grpc/calls.ts';
import { seededRandom } from '../activity/random.ts';
import { HttpFaults, type HttpFaultProbabilities } from './http-faults.ts';
import { StreamFaults, type GarbledKind, type StreamGarbling } from './stream-faults.ts';
import { emptyFaultStats, type FaultStats } from './stats.ts';

export interface PathOption {
  /** Path prefix of the requests the fault hits (default: `sim.faults.paths`). */
  path?: string;
}

/** The programmatic fault API of a running simulator. */
export interface SimFaults {
  /** Ends every open stream (NDJSON and gRPC) from the server side now. */
  dropStreams(): void;
  /** Drops every open stream every `seconds` (undefined: stop). */
  dropStreamsEvery(seconds: number | undefined): void;
  /** The streams open now stop writing (heartbeats too) but stay connected; returns how many. */
  stallStreams(): number;
  /** Stalls the open streams every `seconds` (undefined: stop). */
  stallStreamsEvery(seconds: number | undefined): void;
  /** The next `count` matching requests are answered `status` (default 503) without being processed. */
  failNext(count: number, options?: PathOption & { status?: FaultStatus }): void;
  /** The next `count` matching requests are processed, then answered `ms` late. */
  delayNext(count: number, ms: number, options?: PathOption): void;
  /** The next `count` matching requests are processed, then the connection is cut in the middle of the reply. */
  resetNext(count: number, options?: PathOption): void;
  /** Probabilistic HTTP faults (replaces the configured ones; missing fields keep their value). */
  setHttpProbabilities(probabilities: Partial<HttpFaultProbabilities>): void;
  /** Duplicated / reordered order stream executions (undefined: off). */
  garbleOrderStreams(garbling: StreamGarbling | undefined): void;
  /** Duplicated / reordered market data book updates, gateway NDJSON and gRPC (undefined: off). */
  garbleMarketData(garbling: StreamGarbling | undefined): void;
  /** Streams open now (under fault injection). */
  readonly openStreams: number;
  readonly stats: Readonly<FaultStats>;
  /** Clears every fault: queues, probabilities, garbling and periodic drops and stalls. */
  clear(): void;
}

export class FaultController implements SimFaults {
  readonly stats: FaultStats = emptyFaultStats();
  private readonly http: HttpFaults;
  private readonly streams: StreamFaults;
  private dropAll: () => void = () => undefined;
  private dropTimer: NodeJS.Timeout | undefined;
  private stallTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: SimFaultsConfig,
    private readonly logger: Logger,
  ) {
    const random = seededRandom(config.seed);
    this.http = new HttpFaults(config.paths, this.configuredProbabilities(), random, this.stats);
    this.streams = new StreamFaults(random, this.stats);
    this.setGarbling('orders', this.configuredGarbling(config.orderStream));
    this.setGarbling('marketData', this.configuredGarbling(config.marketData));
  }

  /** Hooks for the gateway's HTTP server. */
  readonly httpHooks: HttpFaultHooks = {
    before: (context) => this.http.before(context),
    reply: (context) => this.http.reply(context),
    stream: (context, sink) => this.streams.wrapNdjson(context.path, sink),
  };

  /** Wrapper for the gRPC server's streams. */
  readonly wrapGrpcStream = (sink: StreamSink, method: string): StreamSink => this.streams.wrapGrpc(method, sink);

  /** Connects the server-side drop of every open stream; starts the configured periodic faults. */
  start(dropAll: () => void): void {
    this.dropAll = dropAll;
    this.dropStreamsEvery(this.config.dropStreamsEverySeconds);
    this.stallStreamsEvery(this.config.stallStreamsEverySeconds);
  }

  stop(): void {
    clearInterval(this.dropTimer);
    clearInterval(this.stallTimer);
  }

  dropStreams(): void {
    this.stats.drops += 1;
    this.logger.info({ openStreams: this.streams.count }, 'fault: dropping every open stream');
    this.dropAll();
  }

  dropStreamsEvery(seconds: number | undefined): void {
    clearInterval(this.dropTimer);
    this.dropTimer = seconds === undefined ? undefined : setInterval(() => this.dropStreams(), seconds * 1000);
    this.dropTimer?.unref();
  }

  stallStreams(): number {
    const stalled = this.streams.stallAll();
    this.logger.info({ stalled }, 'fault: stalling every open stream');
    return stalled;
  }

  stallStreamsEvery(seconds: number | undefined): void {
    clearInterval(this.stallTimer);
    this.stallTimer = seconds === undefined ? undefined : setInterval(() => this.stallStreams(), seconds * 1000);
    this.stallTimer?.unref();
  }

  failNext(count: number, options: PathOption & { status?: FaultStatus } = {}): void {
    this.http.next('error', count, { path: options.path, status: options.status ?? 503 });
  }

  delayNext(count: number, ms: number, options: PathOption = {}): void {
    this.http.next('delay', count, { path: options.path, delayMs: ms });
  }

  resetNext(count: number, options: PathOption = {}): void {
    this.http.next('reset', count, { path: options.path });
  }

  setHttpProbabilities(probabilities: Partial<HttpFaultProbabilities>): void {
    this.http.probabilities = { ...this.http.probabilities, ...probabilities };
  }

  garbleOrderStreams(garbling: StreamGarbling | undefined): void {
    this.setGarbling('orders', garbling);
  }

  garbleMarketData(garbling: StreamGarbling | undefined): void {
    this.setGarbling('marketData', garbling);
  }

  get openStreams(): number {
    return this.streams.count;
  }

  clear(): void {
    this.http.clear();
    this.http.probabilities = { ...this.http.probabilities, errorProbability: 0, delayProbability: 0, resetProbability: 0 };
    this.streams.garbling = {};
    this.dropStreamsEvery(undefined);
    this.stallStreamsEvery(undefined);
  }

  private configuredProbabilities(): HttpFaultProbabilities {
    const c = this.config;
    return {
      errorProbability: c.errors.probability.toNumber(),
      errorStatuses: c.errors.statuses,
      delayProbability: c.delays.probability.toNumber(),
      delayMs: c.delays.ms,
      resetProbability: c.resets.probability.toNumber(),
    };
  }

  private setGarbling(kind: GarbledKind, garbling: StreamGarbling | undefined): void {
    const next = { ...this.streams.garbling };
    if (garbling === undefined) delete next[kind];
    else next[kind] = garbling;
    this.streams.garbling = next;
  }

  private configuredGarbling(section: SimFaultsConfig['orderStream']): StreamGarbling | undefined {
    const garbling = {
      duplicateProbability: section.duplicateProbability.toNumber(),
      reorderProbability: section.reorderProbability.toNumber(),
    };
    return garbling.duplicateProbability > 0 || garbling.reorderProbability > 0 ? garbling : undefined;
  }
}
