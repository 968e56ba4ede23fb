// The --queue URL: redis://[user:password@]host:port/db with defaults, TLS with rediss://, every mistake a
// SWEEP_QUEUE_URL_INVALID that shows the expected form, and the password never in the printed text.
import { describe, expect, it } from 'vitest';
import { parseQueueUrl } from '../../../../backtest/sweep/queue/queue-url.ts';

describe('parseQueueUrl', () => {
  it('reads host, port and database, with 6379 and 0 by default', () => {
    expect(parseQueueUrl('redis://127.0.0.1:6390/3')).toEqual({
      host: '127.0.0.1',
      port: 6390,
      db: 3,
      tls: false,
      text: 'redis://127.0.0.1:6390/3',
    });
    expect(parseQueueUrl('redis://queue.internal')).toMatchObject({
      host: 'queue.internal',
      port: 6379,
      db: 0,
      text: 'redis://queue.internal/0',
    });
    expect(parseQueueUrl('rediss://[::1]:7000/1')).toMatchObject({ host: '::1', port: 7000, db: 1, tls: true });
  });

  it('keeps the credentials for the connection but prints *** for the password', () => {
    const url = parseQueueUrl('redis://sweeper:s3cr%40t@10.0.0.5:6379/2');
    expect(url).toMatchObject({ username: 'sweeper', password: 's3cr@t', text: 'redis://sweeper:***@10.0.0.5:6379/2' });
    expect(parseQueueUrl('redis://:only-password@h/0').text).toBe('redis://:***@h/0');
  });

  it.each([
    ['http://127.0.0.1:6379/0', 'the scheme is http, not redis'],
    ['127.0.0.1:6379', 'not a URL'],
    ['localhost:6379', 'the scheme is localhost, not redis'],
    ['redis://127.0.0.1:6379/zero', 'the database "zero" is not a number'],
    ['redis://127.0.0.1:6379/0?timeout=1', 'no query or fragment is read'],
    ['not a url', 'not a URL'],
  ])('refuses %s: %s', (given, why) => {
    expect(() => parseQueueUrl(given)).toThrow(
      expect.objectContaining({ code: 'SWEEP_QUEUE_URL_INVALID', message: expect.stringContaining(why) }),
    );
  });

  it('never shows the password of a refused URL', () => {
    expect(() => parseQueueUrl('redis://u:hunter2@h:6379/x')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});
