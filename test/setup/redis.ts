/**
 * Vitest global setup: makes sure Debian's `redis-server` is on the machine before the distributed sweep
 * tests run (test/backtest/sweep/queue): installed with apt-get when missing (apt-package.ts), so `npm test`
 * needs no Redis installed by hand. Each test file starts its own server on a free loopback port
 * (test/helpers/redis-server.ts); nothing here starts one.
 */
import { REDIS_SERVER } from '../helpers/redis-server.ts';
import { ensureDebianPackage } from './apt-package.ts';

export default function ensureRedis(): void {
  ensureDebianPackage(REDIS_SERVER, 'redis-server', 'the distributed sweep tests');
}
