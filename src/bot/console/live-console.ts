/**
 * The web console of one live run: its access token (the configured one, or a fresh one), its routes for the
 * control server, and, once the pipeline runs, the feed it shows, sampled once a second. The live runner
 * creates it before the control server starts (pages answer 503 until the pipeline runs), feeds it the venue
 * streams' messages, attaches the pipeline (with bot.strategies, each strategy too), and closes it at stop.
 */
import type { Logger } from 'pino';
import type { ControlTarget } from '../live/control-command.ts';
import { CONTROL_PATH } from '../live/control-path.ts';
import type { RunningPipeline } from '../../engine/pipeline/index.ts';
import type { StrategyMembers } from '../strategy-members.ts';
import { ConsoleFeed, type ConsoleFeedOptions, type ConsoleStrategySource } from './console-feed.ts';
import { consoleRoutes, newConsoleToken, type ConsoleRoutes } from './console-routes.ts';

export interface LiveConsoleOptions {
  /** `bot.control.token`; absent: a fresh token for this run. */
  readonly token: string | undefined;
  /** What the control endpoint operates: the bot's state, or with an id that strategy's (bot.strategies). */
  readonly target: (strategy?: string) => ControlTarget | undefined;
  readonly cancelAll: () => Promise<void>;
  readonly log: Logger;
}

/** With bot.strategies, what the feed shows of each strategy (in the config's order); undefined with the single form. */
export function consoleStrategies(pipeline: RunningPipeline, several: StrategyMembers | undefined): ConsoleStrategySource[] | undefined {
  if (several === undefined || pipeline.strategies === undefined) return undefined;
  return several.members.flatMap((member) => {
    const part = pipeline.strategies?.get(member.id);
    const portfolio = several.portfolios.get(member.id);
    return part === undefined || portfolio === undefined ? [] : [{ strategy: member.strategy.name, part, portfolio }];
  });
}

export class LiveConsole {
  readonly routes: ConsoleRoutes;
  private readonly token: string;
  private feed: ConsoleFeed | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: LiveConsoleOptions) {
    this.token = options.token ?? newConsoleToken();
    this.routes = consoleRoutes({
      token: this.token,
      snapshot: () => this.feed?.snapshot(),
      target: options.target,
      cancelAll: options.cancelAll,
      log: options.log,
    });
  }

  /** A message of a venue stream arrived. */
  observe(stream: 'market' | 'orders', eventType: string): void {
    this.feed?.observe(stream, eventType);
  }

  /** The pipeline runs: the console shows it from now on. */
  attach(options: ConsoleFeedOptions): void {
    const feed = new ConsoleFeed(options);
    feed.tick();
    this.timer = setInterval(() => feed.tick(), 1000);
    this.feed = feed;
  }

  /** The console's address on the control server (`controlUrl` ends with the control path). */
  address(controlUrl: string): string {
    return `${controlUrl.slice(0, controlUrl.length - CONTROL_PATH.length)}/`;
  }

  /** The address with the access token: what the console.ready line gives (stdout only, never the log). */
  urlWithToken(controlUrl: string): string {
    return `${this.address(controlUrl)}?token=${encodeURIComponent(this.token)}`;
  }

  close(): void {
    clearInterval(this.timer);
    this.feed?.close();
  }
}
