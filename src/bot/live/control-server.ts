/**
 * The operator control endpoint of a live run (`bot.control`): a node:http server on a loopback address only
 * (it changes the trading state without authentication, so nothing else may reach it; use an SSH tunnel to
 * operate a remote bot). `GET /control/state` answers the trading state, its cause and reason;
 * `POST /control/state` with `{"state": "active"|"reducing"|"halted", "reason"?: "..."}` sets it as an operator
 * command (what SIGUSR2 does for active <-> halted). Bad input gets a 400 with a message that says what to send;
 * a POST must be `application/json` and carry a loopback Host header, so a web page in the operator's browser
 * cannot fire it (no CORS simple request, no DNS rebinding). Every command is logged. With `?strategy=<id>`
 * (bot.strategies) GET and POST read and set that strategy's own state; an id the bot does not run is a 404.
 * The command body's schema and its application are control-command.ts (the web console uses them too).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { TradebotError } from '../../errors.ts';
import type { TradingStateCause } from '../../engine/risk/trading-state.ts';
import type { TradingState } from '../../engine/risk/trading-states.ts';
import type { ConsoleRoutes } from '../console/console-routes.ts';
import { LOOPBACK_HOSTS, isLoopbackHost, loopbackHostHeader } from '../loopback-host.ts';
import { COMMAND_EXAMPLE as EXAMPLE, applyCommand, parseCommand, type ControlTarget } from './control-command.ts';
import { CONTROL_PATH } from './control-path.ts';

export { CONTROL_PATH, LOOPBACK_HOSTS, isLoopbackHost, parseCommand, type ControlTarget };
const MAX_BODY_BYTES = 4096;

export interface ControlServerOptions {
  /**
   * The state machine to operate; undefined while the bot is still starting (requests then get a 503). With
   * `?strategy=<id>` (bot.strategies, #25) that strategy's own state; undefined for an id the bot does not run.
   */
  readonly target: (strategy?: string) => ControlTarget | undefined;
  /** 0 picks a free port. */
  readonly port: number;
  /** A loopback address or localhost (default 127.0.0.1); anything else is refused. */
  readonly host?: string;
  readonly log?: Logger;
  /** The web console's routes (bot.control.console), behind the same Host check; absent: no console. */
  readonly console?: ConsoleRoutes;
}

export interface ControlServer {
  /** e.g. http://127.0.0.1:9465/control/state */
  readonly url: string;
  readonly port: number;
  /** Operator commands applied so far (the console's included). */
  readonly commands: number;
  close(): Promise<void>;
}

/** The state as the endpoint reports it. */
export interface ControlStateBody {
  readonly state: TradingState;
  readonly cause: TradingStateCause;
  readonly reason: string;
}

function send(response: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  response.end(`${JSON.stringify(body)}\n`);
}

function refuse(response: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  send(response, status, { error: { code, message } }, headers);
}

/** The body as text, or undefined when it is too large (read to the end and dropped, so the answer is seen). */
export async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}

function stateBody(target: ControlTarget): ControlStateBody {
  return { state: target.state, cause: target.cause, reason: target.reason };
}

export async function startControlServer(options: ControlServerOptions): Promise<ControlServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) {
    throw new TradebotError(
      'CONTROL_NOT_LOOPBACK',
      `the control endpoint binds to loopback only (${LOOPBACK_HOSTS.join(', ')}), got ${JSON.stringify(host)}: ` +
        'it changes the trading state without authentication; reach a remote bot through an SSH tunnel',
      { kind: 'config' },
    );
  }
  const { log } = options;
  let commands = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const [path = '/', queryText = ''] = (request.url ?? '/').split('?');
    if (!loopbackHostHeader(request.headers.host)) {
      return refuse(response, 403, 'CONTROL_FORBIDDEN_HOST', `the Host header must name a loopback address (${LOOPBACK_HOSTS.join(', ')})`);
    }
    if (
      path !== CONTROL_PATH &&
      options.console !== undefined &&
      (await options.console.handle(request, response, path, new URLSearchParams(queryText)))
    )
      return;
    if (path !== CONTROL_PATH) return refuse(response, 404, 'CONTROL_NOT_FOUND', `not found: the control endpoint is ${CONTROL_PATH}`);
    const bot = options.target();
    if (bot === undefined)
      return refuse(response, 503, 'CONTROL_STARTING', 'the bot is still starting; try again in a moment', { 'retry-after': '1' });
    const strategy = new URLSearchParams(queryText).get('strategy') ?? undefined;
    const target = strategy === undefined ? bot : options.target(strategy);
    if (target === undefined)
      return refuse(response, 404, 'CONTROL_UNKNOWN_STRATEGY', `the bot runs no strategy "${strategy ?? ''}" (bot.strategies ids)`);
    if (request.method === 'GET' || request.method === 'HEAD')
      return send(response, 200, { ...stateBody(target), ...(strategy === undefined ? {} : { strategy }) });
    if (request.method !== 'POST')
      return refuse(response, 405, 'CONTROL_METHOD', 'method not allowed: GET reads the state, POST sets it', { allow: 'GET, HEAD, POST' });
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json')
      return refuse(response, 415, 'CONTROL_CONTENT_TYPE', `send the command as content-type application/json: ${EXAMPLE}`);
    const text = await readBody(request);
    if (text === undefined)
      return refuse(response, 413, 'CONTROL_BODY_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes: ${EXAMPLE}`);
    const command = parseCommand(text);
    if (!command.ok) {
      log?.warn({ status: 400 }, `operator control: refused a command: ${command.message}`);
      return refuse(response, 400, 'CONTROL_BAD_REQUEST', command.message);
    }
    commands += 1;
    return send(response, 200, applyCommand({ target, command, via: 'HTTP control', strategy, log }));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log?.error({ err: error }, 'operator control: request failed');
      if (!response.headersSent) refuse(response, 500, 'CONTROL_FAILED', 'the command failed; see the bot log');
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new TradebotError(
          'CONTROL_LISTEN_FAILED',
          `control endpoint cannot listen on ${host}:${options.port} (${error.code ?? error.message}); change bot.control.port`,
          { kind: 'config', cause: error },
        ),
      ),
    );
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${CONTROL_PATH}`,
    port,
    get commands() {
      return commands + (options.console?.commands ?? 0);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        options.console?.close();
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
