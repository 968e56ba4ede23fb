/**
 * The web console's HTTP routes, served by the control server (which has already checked that the Host header
 * names a loopback address). Access needs the run's token: `/?token=<token>` sets it in an HttpOnly,
 * SameSite=Strict cookie and redirects to `/` (so the token leaves the address bar); without a valid cookie
 * every page and API answers 401. Routes:
 * - `GET /` the page, `GET /console/app.js` its script, `GET /console/charts.js` the charts library (no CDN);
 * - `GET /console/api/state` one snapshot; `GET /console/events` server-sent events, a snapshot a second;
 * - `POST /console/api/trading-state` `{"state", "reason"?}` (with `?strategy=<id>`: that strategy's own state,
 *   as on the control endpoint; an id the bot does not run is a 404) and `POST /console/api/cancel-all` `{}`:
 *   operator commands (JSON bodies only, same-origin only, validated by console-schema.ts), logged like the
 *   control API's.
 * Every snapshot is checked against its schema before it is sent (a failure is logged, and nothing is sent).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { chartLibrarySource } from '../../../backtest/report/chart-library.ts';
import { applyCommand, parseCommand, type ControlTarget } from '../live/control-command.ts';
import { readBody } from '../live/control-server.ts';
import { cancelAllCommandSchema, consoleSnapshotSchema, type ConsoleSnapshot } from './console-schema.ts';
import { CONSOLE_APP_SCRIPT, CONSOLE_PAGE } from './console-page.ts';

export const CONSOLE_COOKIE = 'tradebot_console';
const MAX_EVENT_CLIENTS = 16;
const EVENT_INTERVAL_MS = 1000;

/** A fresh access token for a run (192 random bits, URL-safe). */
export function newConsoleToken(): string {
  return randomBytes(24).toString('base64url');
}

export interface ConsoleRoutesOptions {
  readonly token: string;
  readonly snapshot: () => ConsoleSnapshot | undefined;
  /** The bot's state machine (undefined while it starts); with a strategy id, that strategy's (undefined: none such). */
  readonly target: (strategy?: string) => ControlTarget | undefined;
  readonly cancelAll: () => Promise<void>;
  readonly log?: Logger | undefined;
}

export interface ConsoleRoutes {
  /** Answers the request when it is the console's; false when the path is not a console path. */
  handle(request: IncomingMessage, response: ServerResponse, path: string, query: URLSearchParams): Promise<boolean>;
  /** Operator commands applied through the console so far. */
  readonly commands: number;
  /** Ends the event streams. */
  close(): void;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(`${JSON.stringify(body)}\n`);
}

function refuse(response: ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, { error: { code, message } });
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(request: IncomingMessage): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === CONSOLE_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:",
};

const isConsolePath = (path: string) => path === '/' || path.startsWith('/console/');

/** The JSON of a well-formed snapshot; 'starting' while the bot starts, 'invalid' when it fails its schema (logged). */
function snapshotText(options: ConsoleRoutesOptions): string | 'starting' | 'invalid' {
  const snapshot = options.snapshot();
  if (snapshot === undefined) return 'starting';
  const checked = consoleSnapshotSchema.safeParse(snapshot);
  if (checked.success) return JSON.stringify(checked.data);
  options.log?.error({ issues: checked.error.issues.slice(0, 5) }, 'operator console: a snapshot failed its schema; not sent');
  return 'invalid';
}

/** A GET (or HEAD) of the console: the page, its scripts, the state snapshot, the event stream, or 404. */
function serveRead(
  options: ConsoleRoutesOptions,
  response: ServerResponse,
  path: string,
  events: (response: ServerResponse) => void,
): void {
  if (path === '/') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS });
    response.end(CONSOLE_PAGE);
  } else if (path === '/console/app.js') {
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', ...PAGE_HEADERS });
    response.end(CONSOLE_APP_SCRIPT);
  } else if (path === '/console/charts.js') {
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', ...PAGE_HEADERS });
    response.end(chartLibrarySource());
  } else if (path === '/console/api/state') {
    const snapshot = snapshotText(options);
    if (snapshot === 'starting') refuse(response, 503, 'CONSOLE_STARTING', 'the bot is still starting; try again in a moment');
    else if (snapshot === 'invalid') refuse(response, 500, 'CONSOLE_SNAPSHOT_INVALID', 'the snapshot failed its schema; see the bot log');
    else {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      response.end(`${snapshot}\n`);
    }
  } else if (path === '/console/events') {
    events(response);
  } else {
    refuse(response, 404, 'CONSOLE_NOT_FOUND', `not found: ${path}`);
  }
}

export function consoleRoutes(options: ConsoleRoutesOptions): ConsoleRoutes {
  const clients = new Set<ServerResponse>();
  const { log } = options;
  let commands = 0;

  const events = (response: ServerResponse): void => {
    if (clients.size >= MAX_EVENT_CLIENTS) return refuse(response, 503, 'CONSOLE_BUSY', `at most ${MAX_EVENT_CLIENTS} consoles at once`);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    clients.add(response);
    const push = () => {
      // a slow reader is skipped rather than queued for (the next second's snapshot supersedes this one)
      if (response.writableLength >= 1_000_000) return;
      const snapshot = snapshotText(options);
      if (snapshot !== 'starting' && snapshot !== 'invalid') response.write(`data: ${snapshot}\n\n`);
    };
    push();
    const timer = setInterval(push, EVENT_INTERVAL_MS);
    response.on('close', () => {
      clearInterval(timer);
      clients.delete(response);
    });
  };

  const command = async (request: IncomingMessage, response: ServerResponse, path: string, query: URLSearchParams): Promise<void> => {
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return refuse(response, 415, 'CONSOLE_CONTENT_TYPE', 'send commands as application/json');
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${request.headers.host ?? ''}`)
      return refuse(response, 403, 'CONSOLE_FORBIDDEN_ORIGIN', 'commands are accepted from the console page only');
    const bot = options.target();
    if (bot === undefined) return refuse(response, 503, 'CONSOLE_STARTING', 'the bot is still starting; try again in a moment');
    const body = await readBody(request);
    if (body === undefined) return refuse(response, 413, 'CONSOLE_BODY_TOO_LARGE', 'the body is too large');
    if (path === '/console/api/cancel-all') return cancelAll(response, body);
    const strategy = query.get('strategy') ?? undefined;
    const target = strategy === undefined ? bot : options.target(strategy);
    if (target === undefined)
      return refuse(response, 404, 'CONSOLE_UNKNOWN_STRATEGY', `the bot runs no strategy "${strategy ?? ''}" (bot.strategies ids)`);
    const parsed = parseCommand(body);
    if (!parsed.ok) {
      log?.warn({ status: 400 }, `operator console: refused a command: ${parsed.message}`);
      return refuse(response, 400, 'CONSOLE_BAD_REQUEST', parsed.message);
    }
    commands += 1;
    return sendJson(response, 200, applyCommand({ target, command: parsed, via: 'console', strategy, log }));
  };

  const cancelAll = async (response: ServerResponse, body: string): Promise<void> => {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      value = undefined;
    }
    if (!cancelAllCommandSchema.safeParse(value).success) {
      log?.warn({ status: 400 }, 'operator console: refused a cancel-all whose body is not {}');
      return refuse(response, 400, 'CONSOLE_BAD_REQUEST', 'cancel-all takes no field: send {}');
    }
    log?.warn({ source: 'console' }, 'operator console: cancel all requested');
    commands += 1;
    await options.cancelAll();
    return sendJson(response, 200, { cancelled: true });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> => {
    if (!isConsolePath(path)) return false;
    const method = request.method ?? 'GET';
    if (path === '/' && query.has('token')) {
      if (!sameToken(query.get('token') ?? undefined, options.token)) {
        refuse(response, 401, 'CONSOLE_UNAUTHORIZED', 'wrong console token: open the URL of the console.ready line');
        return true;
      }
      response.writeHead(303, {
        location: '/',
        'set-cookie': `${CONSOLE_COOKIE}=${encodeURIComponent(options.token)}; HttpOnly; SameSite=Strict; Path=/`,
        'cache-control': 'no-store',
      });
      response.end();
      return true;
    }
    if (!sameToken(cookieToken(request), options.token)) {
      refuse(response, 401, 'CONSOLE_UNAUTHORIZED', 'the console needs its token: open the URL of the console.ready line');
      return true;
    }
    if (method === 'POST' && (path === '/console/api/trading-state' || path === '/console/api/cancel-all')) {
      await command(request, response, path, query);
      return true;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      refuse(response, 405, 'CONSOLE_METHOD', 'method not allowed');
      return true;
    }
    serveRead(options, response, path, events);
    return true;
  };

  return {
    handle,
    get commands() {
      return commands;
    },
    close: () => {
      for (const client of clients) client.end();
      clients.clear();
    },
  };
}
