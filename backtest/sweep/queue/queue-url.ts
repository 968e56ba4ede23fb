/**
 * The `--queue` URL of `tradebot sweep` and `tradebot worker`: `redis://[user:password@]host:port/db`
 * (`rediss://` for TLS), port 6379 and db 0 when left out. Parsed once into the Redis connection options;
 * `text` is the URL with any password replaced by `***`, the only form that is printed or stored.
 */
import { TradebotError } from '../../../src/errors.ts';

export interface QueueUrl {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly username?: string;
  readonly password?: string;
  readonly tls: boolean;
  /** The URL for logs, errors, sweep.json: never the password. */
  readonly text: string;
}

function invalid(given: string, why: string): TradebotError {
  const shown = given.replace(/\/\/([^@/]*):[^@/]*@/, '//$1:***@');
  return new TradebotError(
    'SWEEP_QUEUE_URL_INVALID',
    `--queue ${shown}: ${why} (expected redis://host:port/db, e.g. redis://127.0.0.1:6379/0)`,
    {
      kind: 'config',
    },
  );
}

export function parseQueueUrl(given: string): QueueUrl {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw invalid(given, 'not a URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw invalid(given, `the scheme is ${url.protocol.slice(0, -1)}, not redis`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') throw invalid(given, 'no host');
  const port = url.port === '' ? 6379 : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0 || !/^\d*$/.test(dbText)) throw invalid(given, `the database "${dbText}" is not a number`);
  if (url.search !== '' || url.hash !== '') throw invalid(given, 'no query or fragment is read');
  const username = url.username === '' ? undefined : decodeURIComponent(url.username);
  const password = url.password === '' ? undefined : decodeURIComponent(url.password);
  const auth = username === undefined && password === undefined ? '' : `${username ?? ''}${password === undefined ? '' : ':***'}@`;
  return {
    host,
    port,
    db,
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
    tls: url.protocol === 'rediss:',
    text: `${url.protocol}//${auth}${url.host}/${db}`,
  };
}
