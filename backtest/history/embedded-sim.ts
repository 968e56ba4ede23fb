/**
 * `history fetch` against the embedded exchange (a config with a `sim` section and no `exchange`): the sim
 * is started in-process with an injected clock set to `from`, its synthetic market activity is stepped in
 * virtual time up to `to` (one step per `sim.activity.intervalMs`, so an hour of market takes seconds),
 * contracts whose expiration falls inside [from, to) are settled at that moment (at the activity's fair
 * value rounded to 0 or 1; at 0 without activity), after the last step too, and the trades are then read
 * back through a real client, as from any exchange: the gateway client (`source: gateway`), or the family A
 * client (`source: familyA`: an ephemeral API client is onboarded for it, as the live runner does: a fresh
 * RSA key in a private temp folder, its public key in `sim.clients`, removed at close; the client's
 * assertions are signed on the sim's virtual clock).
 * Trade search shows a caller only its own accounts' trades, so a read-only `history` user is added whose
 * accounts are the activity's maker and taker accounts (family A: the firm's accounts, the same ones). The
 * same config, window and seed give the same tape, page tokens included, so an interrupted fetch resumes in
 * a new process.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { SimConfig } from '../../src/sim/config.ts';
import { startSim, type RunningSim } from '../../src/sim/simulator.ts';
import { ACTIVITY_FIRM, MarketActivity } from '../../src/sim/activity/market-activity.ts';
import { toDomainInstrument } from '../../src/sim/exchange/instruments.ts';
import { GatewayClient, instrumentCatalog } from '../../src/exchange/gateway/index.ts';
import { createFamilyAClient } from '../../src/exchange/familya/index.ts';
import { BOT_CLIENT_ID, onboardEphemeralClient } from '../../src/bot/live/stream-transport.ts';
import type { HistorySource } from './format.ts';
import { familyASource, gatewaySource, type TradePageSource } from './trade-source.ts';

export const HISTORY_USER = 'history';
const HISTORY_PARTICIPANT = `firms/${ACTIVITY_FIRM}/users/${HISTORY_USER}`;

export interface EmbeddedHistory {
  readonly sim: RunningSim;
  readonly source: TradePageSource;
  /** Activity steps run (0 when activity is disabled). */
  readonly steps: number;
}

function withHistoryUser(config: SimConfig): { config: SimConfig; password: string } {
  const password = `Hist-${randomBytes(9).toString('base64url')}-9x`;
  const accounts = config.instruments.flatMap((i) => [
    ...Array.from({ length: config.activity.makersPerInstrument }, (_, k) => MarketActivity.makerAccount(i.symbol, k)),
    MarketActivity.takerAccount(i.symbol),
  ]);
  const user = { username: HISTORY_USER, password, participant: HISTORY_PARTICIPANT, accounts, registered: true };
  return { config: { ...config, users: [...config.users.filter((u) => u.username !== HISTORY_USER), user] }, password };
}

/** Starts the sim, runs its activity over [from, to) in virtual time, and connects the history user's client for `source`. */
export async function startEmbeddedHistory(
  simConfig: SimConfig,
  from: number,
  to: number,
  logger: Logger,
  source: HistorySource = 'gateway',
): Promise<EmbeddedHistory> {
  const { config: withUser, password } = withHistoryUser(simConfig);
  const onboarded = source === 'familyA' ? onboardEphemeralClient(withUser, HISTORY_PARTICIPANT) : undefined;
  const config = onboarded?.sim ?? withUser;
  // the sim's clock: virtual while the window's market runs, then from `to` on at wall speed (see below)
  let now = from;
  let servingSince: number | undefined;
  const clock = () => (servingSince === undefined ? now : to + Math.floor(performance.now() - servingSince));
  let sim: RunningSim;
  try {
    sim = await startSim(config, {
      logger: logger.child({ component: 'sim' }),
      clock: { now: clock },
      activityTimer: false,
      kycTimer: false,
    });
  } catch (error) {
    onboarded?.cleanup();
    throw error;
  }
  const started = sim;
  const close = async () => {
    await started.close();
    onboarded?.cleanup();
  };
  try {
    let steps = 0;
    const expiries = sim.core
      .instruments()
      .flatMap((i) =>
        i.config.expiration === undefined ? [] : [{ symbol: i.symbol, time: Date.parse(i.config.expiration), scale: i.scales.priceScale }],
      )
      .filter((e) => e.time >= from && e.time < to)
      .sort((a, b) => a.time - b.time);
    const activity = sim.activity;
    /** Settles the contracts expiring by `time` (inclusive: strictly before it when `before`), in expiry order. */
    const settleDue = (time: number, before: boolean) => {
      for (let e = expiries[0]; e !== undefined && (before ? e.time < time : e.time <= time); e = expiries[0]) {
        expiries.shift();
        now = e.time;
        const fair = activity?.activity.fairValue(e.symbol) ?? 0;
        sim.core.settle(e.symbol, fair * 2 >= e.scale ? 1 : 0);
      }
    };
    if (activity !== undefined) {
      for (let t = from + config.activity.intervalMs; t < to; t += config.activity.intervalMs) {
        settleDue(t, false);
        now = t;
        activity.step();
        steps++;
      }
    }
    // after the last step (or with no activity): the expiries left before the end of the window
    settleDue(to, true);
    // The market of the window is made: from here the exchange only answers the fetch, and its clock moves
    // on from `to` in real time, so its rate limit (per second of its clock) lets a long fetch through at the
    // venue's rate instead of refusing every call after the first second's worth (a clock stopped at `to`).
    now = to;
    servingSince = performance.now();
    const oldest = sim.core.trades()[0];
    if (oldest !== undefined && steps > 0 && sim.core.trades().length >= 200_000) {
      logger.warn(
        { kept: sim.core.trades().length, oldest: new Date(oldest.time).toISOString() },
        'the embedded exchange keeps only its most recent 200,000 trades: the start of this window is lost; fetch a shorter window',
      );
    }
    if (onboarded !== undefined) {
      const exchange = {
        apiUrl: sim.ready.api,
        authUrl: sim.ready.auth,
        gatewayUrl: sim.ready.gateway,
        familyA: {
          clientId: BOT_CLIENT_ID,
          privateKeyFile: onboarded.privateKeyFile,
          participant: HISTORY_PARTICIPANT,
          refreshMarginSeconds: 30,
        },
      };
      const stack = createFamilyAClient(exchange, { logger, now: clock });
      const client = stack.client;
      return {
        sim,
        source: familyASource(client, async () => {
          await client.close();
          await close();
        }),
        steps,
      };
    }
    const instruments = sim.core.instruments().map((i) => toDomainInstrument(i, sim.core.instrumentState(i.symbol), sim.core.currency));
    const client = new GatewayClient({
      gatewayUrl: sim.ready.gateway,
      credentials: { username: HISTORY_USER, password },
      instruments: instrumentCatalog(instruments),
      logger: logger.child({ component: 'gateway' }),
    });
    await client.login();
    return {
      sim,
      source: gatewaySource(client, instruments, async () => {
        await client.close();
        await close();
      }),
      steps,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
