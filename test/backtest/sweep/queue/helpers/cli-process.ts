/**
 * `tradebot` as a real child process for the queued sweep tests (`bin/tradebot.js`: the TypeScript sources
 * through tsx): its stdout and stderr lines collected, `line` resolving at the first stdout or stderr line a
 * predicate accepts (already written or still to come; rejected if the process exits first), and `exit`
 * once the process and its output have ended. Every child is killed when the test file ends.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll } from 'vitest';

export const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const BIN = path.join(ROOT, 'bin', 'tradebot.js');

const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export interface CliProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: string[];
  readonly stderr: string[];
  /** The first line (stdout, or stderr with `stream: 'stderr'`) that `accept` takes. */
  line(accept: (line: string) => boolean, stream?: 'stdout' | 'stderr'): Promise<string>;
  /** stdout lines that are JSON events, parsed. */
  events(): Record<string, unknown>[];
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startCli(args: readonly string[]): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
  children.push(child);
  const lines = { stdout: [] as string[], stderr: [] as string[] };
  const waiters: { stream: 'stdout' | 'stderr'; accept: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    createInterface({ input: child[stream] }).on('line', (line) => {
      lines[stream].push(line);
      for (const waiter of [...waiters]) {
        if (waiter.stream === stream && waiter.accept(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    });
  }
  const closed = Promise.all(
    ['stdout', 'stderr'].map((s) => new Promise<void>((resolve) => child[s as 'stdout'].once('close', () => resolve()))),
  );
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  ).then(async (result) => {
    await closed;
    return result;
  });
  return {
    child,
    stdout: lines.stdout,
    stderr: lines.stderr,
    line(accept, stream = 'stdout') {
      const found = lines[stream].find(accept);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise<string>((resolve, reject) => {
        waiters.push({ stream, accept, resolve });
        void exit.then(({ code, signal }) =>
          reject(new Error(`tradebot ${args[0]} exited (${code ?? signal}) first; stderr:\n${lines.stderr.join('\n')}`)),
        );
      });
    },
    events: () =>
      lines.stdout.flatMap((line) => {
        try {
          const value: unknown = JSON.parse(line);
          return typeof value === 'object' && value !== null ? [value as Record<string, unknown>] : [];
        } catch {
          return [];
        }
      }),
    exit,
  };
}

/** `tradebot worker` on the queue; resolves once it is connected (its worker.ready line). */
export async function startWorker(queue: string, extra: readonly string[] = []): Promise<CliProcess> {
  const worker = startCli(['worker', '--queue', queue, '--lock-seconds', '1', ...extra]);
  await worker.line((l) => l.includes('"worker.ready"'));
  return worker;
}

/** The JSON events of `kind` (`worker.job`) in a process's stdout. */
export function eventsOf(p: CliProcess, event: string): Record<string, unknown>[] {
  return p.events().filter((e) => e['event'] === event);
}
