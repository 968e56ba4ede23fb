/**
 * Child processes of `node bin/tradebot.js ...` for the kill test: stdout and stderr read line by line,
 * `line(match)` resolves at the first line (already seen or still to come) that matches, `exit` with code
 * and signal once both streams closed. `watchJournal` resolves once a journal file's complete lines satisfy
 * a predicate, re-checked on every change of the file (fs.watch on its folder), never by sleeping.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = path.resolve(import.meta.dirname, '../../../..');
const BIN = path.join(ROOT, 'bin', 'tradebot.js');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Tradebot {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: string[];
  readonly stderr: string[];
  /** The first line of `stream` for which `match` holds. */
  line(stream: 'stdout' | 'stderr', match: (line: string) => boolean, what: string): Promise<string>;
  readonly exit: Promise<Exit>;
}

const running: ChildProcessWithoutNullStreams[] = [];

/** SIGKILLs every child still running (afterAll). */
export function killAll(): void {
  for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export function tradebot(args: readonly string[]): Tradebot {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
  running.push(child);
  const lines = { stdout: [] as string[], stderr: [] as string[] };
  const waiters: { stream: 'stdout' | 'stderr'; match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  const closed: Promise<void>[] = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    const reader = createInterface({ input: child[stream] });
    reader.on('line', (line) => {
      lines[stream].push(line);
      for (const waiter of [...waiters]) {
        if (waiter.stream !== stream || !waiter.match(line)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    });
    closed.push(new Promise((resolve) => reader.once('close', () => resolve())));
  }
  const exit = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))).then(async (result) => {
    await Promise.all(closed);
    return result;
  });
  return {
    child,
    stdout: lines.stdout,
    stderr: lines.stderr,
    exit,
    line: (stream, match, what) =>
      new Promise<string>((resolve, reject) => {
        const seen = lines[stream].find(match);
        if (seen !== undefined) return resolve(seen);
        waiters.push({ stream, match, resolve });
        void exit.then((result) =>
          reject(
            new Error(
              `tradebot ${args[0] ?? ''} exited (${JSON.stringify(result)}) before ${what}; ` +
                `stderr tail:\n${lines.stderr.slice(-15).join('\n')}`,
            ),
          ),
        );
      }),
  };
}

/** Complete lines of a journal file, parsed (the line being written, if any, is left out). */
export function journalLines(file: string): Record<string, unknown>[] {
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Resolves once `predicate(journalLines(file))` holds; rejects when `bot` exits first. */
export function watchJournal(
  file: string,
  predicate: (lines: Record<string, unknown>[]) => boolean,
  bot: Tradebot,
  what: string,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const watcher = fs.watch(path.dirname(file));
    const check = () => {
      if (!predicate(journalLines(file))) return;
      watcher.close();
      resolve();
    };
    watcher.on('change', check);
    void bot.exit.then((result) => {
      watcher.close();
      reject(new Error(`the bot exited (${JSON.stringify(result)}) before ${what}; stderr tail:\n${bot.stderr.slice(-15).join('\n')}`));
    });
    check();
  });
}
