/**
 * A real Redis for tests: Debian's `redis-server` (installed by test/setup/redis.ts when missing) started on a
 * free 127.0.0.1 port, without persistence (`--save '' --appendonly no`), in its own temporary folder. `start`
 * resolves when the server logs that it accepts connections (never after a fixed sleep); `stop` ends it and
 * waits for its exit; `restart` stops it and starts a new one on the same port (an empty Redis: nothing was
 * saved), as a Redis restarted under a running sweep.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REDIS_SERVER = '/usr/bin/redis-server';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port for redis-server');
  return address.port;
}

/** Spawns redis-server on `port`; resolves once it accepts connections, rejects with its output if it exits first. */
function spawnRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'notice'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.off('exit', onExit);
        resolve(child);
      }
    };
    const onExit = (code: number | null) =>
      reject(new Error(`redis-server on port ${port} exited (${code}) before it was ready:\n${output}`));
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

export class RedisServer {
  private constructor(
    readonly port: number,
    private readonly dir: string,
    private child: ChildProcess | undefined,
  ) {}

  /** `redis://127.0.0.1:<port>/<db>` */
  url(db = 0): string {
    return `redis://127.0.0.1:${this.port}/${db}`;
  }

  static async start(): Promise<RedisServer> {
    if (!existsSync(REDIS_SERVER)) {
      throw new Error(
        `${REDIS_SERVER} is missing: these tests need Debian's redis-server ` +
          '(the test setup installs it as root: apt-get install -y redis-server)',
      );
    }
    const dir = mkdtempSync(path.join(tmpdir(), 'tradebot-redis-'));
    let last: unknown;
    for (let attempt = 0; attempt < 5; attempt++) {
      const port = await freePort();
      try {
        return new RedisServer(port, dir, await spawnRedis(port, dir));
      } catch (error) {
        last = error; // the port was taken between the probe and the start: another one
      }
    }
    throw last;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  /** A new, empty server on the same port (the old one killed). */
  async restart(): Promise<void> {
    await this.stop();
    this.child = await spawnRedis(this.port, this.dir);
  }
}
