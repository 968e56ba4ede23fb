/**
 * `tradebot control [active|reducing|halted]`: the operator's remote for a running bot's control endpoint
 * (`bot.control`, HTTP on loopback). With a state it sets the trading state (an operator command: it also
 * lifts daily-loss and strategy-error holds, never a stale-feed hold); without one it prints the current
 * state. Prints one JSON line (`{"event":"control.state",...}`). The port comes from `--port` or from
 * `bot.control.port` of `--config`; only loopback hosts are contacted.
 */
import type { Command } from 'commander';
import { TradebotError } from '../../errors.ts';
import { CONTROL_PATH } from '../../bot/live/control-path.ts';
import { LOOPBACK_HOSTS, isLoopbackHost } from '../../bot/loopback-host.ts';
import { TRADING_STATES, isTradingState } from '../../engine/risk/trading-states.ts';

const TIMEOUT_MS = 5_000;

export interface ControlCommandOptions {
  port?: number;
  host?: string;
  config?: string;
  reason?: string;
  /** One strategy of bot.strategies (#25). */
  strategy?: string;
}

function parsePort(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 65535)
    throw new TradebotError('CLI_INVALID_PORT', `--port expects a port number from 1 to 65535, got "${text}"`, { kind: 'config' });
  return value;
}

/** The control URL from the options: --port, or bot.control of --config (a fixed port; 0 is only known to the bot). */
export async function controlUrl(options: ControlCommandOptions): Promise<string> {
  let host = options.host;
  let port = options.port;
  if (options.config !== undefined && (port === undefined || host === undefined)) {
    // loaded here, not at start, so that `tradebot --help` stays fast
    const { loadConfig } = await import('../../config/index.ts');
    const control = loadConfig(options.config).bot.control;
    if (control === undefined && port === undefined) {
      throw new TradebotError(
        'CLI_CONTROL_NO_PORT',
        `${options.config} has no bot.control section: add bot.control: { port: <n> } (and restart the bot), or pass --port`,
        { kind: 'config' },
      );
    }
    host ??= control?.host;
    if (port === undefined && control !== undefined) {
      if (control.port === 0)
        throw new TradebotError(
          'CLI_CONTROL_NO_PORT',
          `${options.config} has bot.control.port 0 (a free port picked at start): ` +
            'pass --port with the port from the bot\'s "operator control at ..." log line',
          { kind: 'config' },
        );
      port = control.port;
    }
  }
  if (port === undefined)
    throw new TradebotError(
      'CLI_CONTROL_NO_PORT',
      `give --port <n> (the bot logs "operator control at http://127.0.0.1:<port>${CONTROL_PATH}" at start) ` +
        'or --config <file> with bot.control.port',
      { kind: 'config' },
    );
  host ??= '127.0.0.1';
  if (!isLoopbackHost(host))
    throw new TradebotError(
      'CONTROL_NOT_LOOPBACK',
      `--host must be a loopback address (${LOOPBACK_HOSTS.join(', ')}), got "${host}": reach a remote bot through an SSH tunnel`,
      { kind: 'config' },
    );
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${CONTROL_PATH}`;
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown };
}

/** Sends the command (or reads the state) and returns the endpoint's JSON answer; failures are typed errors. */
export async function callControl(url: string, state: string | undefined, reason: string | undefined): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: state === undefined ? 'GET' : 'POST',
      ...(state === undefined
        ? {}
        : {
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ state, ...(reason === undefined ? {} : { reason }) }),
          }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new TradebotError(
      'CONTROL_UNREACHABLE',
      `no bot answers at ${url}: is it running with bot.control set, on this port? ` +
        `(${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message})`,
      { kind: 'connectivity', cause: error },
    );
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new TradebotError(
      'CONTROL_BAD_ANSWER',
      `${url} answered HTTP ${response.status} with a body that is not JSON: is that port the bot's control endpoint?`,
      { kind: 'internal' },
    );
  }
  if (!response.ok) {
    const error = (body as ErrorBody).error;
    const message = typeof error?.message === 'string' ? error.message : `HTTP ${response.status}`;
    throw new TradebotError(typeof error?.code === 'string' ? error.code : 'CONTROL_REFUSED', `the bot refused the command: ${message}`, {
      kind: response.status === 400 ? 'validation' : 'rejection',
    });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new TradebotError('CONTROL_BAD_ANSWER', `${url} answered with unexpected JSON`, { kind: 'internal' });
  return body as Record<string, unknown>;
}

export function registerControlCommand(program: Command): void {
  program
    .command('control')
    .description("Set a running bot's trading state (active, reducing, halted) through its control endpoint (bot.control), or print it")
    .argument('[state]', `one of ${TRADING_STATES.join(', ')}; omit to print the current state`)
    .option('--port <port>', 'the control endpoint port (default: bot.control.port of --config)', parsePort)
    .option('--host <host>', 'loopback address of the endpoint (default: bot.control.host of --config, else 127.0.0.1)')
    .option('-c, --config <file>', "the bot's config file, to read bot.control from")
    .option('-r, --reason <text>', 'why (logged by the bot with the state change)')
    .option('--strategy <id>', "one strategy's own state (bot.strategies id) instead of the whole bot's")
    .action(async (state: string | undefined, options: ControlCommandOptions) => {
      if (state !== undefined && !isTradingState(state)) {
        throw new TradebotError('CLI_INVALID_STATE', `the state must be one of ${TRADING_STATES.join(', ')}, got "${state}"`, {
          kind: 'config',
        });
      }
      const url = await controlUrl(options);
      const target = options.strategy === undefined ? url : `${url}?strategy=${encodeURIComponent(options.strategy)}`;
      const answer = await callControl(target, state, options.reason);
      process.stdout.write(`${JSON.stringify({ event: 'control.state', ...answer })}\n`);
    });
}
