/**
 * Captures the CLI's stdout and stderr in-process (vi.spyOn on write), and lets a test wait for a line
 * that matches, without sleeping.
 */
import { vi } from 'vitest';

export interface Captured {
  out(): string;
  err(): string;
  /** Resolves with the first stdout line matching `predicate` (already written or still to come). */
  waitForLine(predicate: (line: string) => boolean): Promise<string>;
  /** The same for stderr. */
  waitForErrLine(predicate: (line: string) => boolean): Promise<string>;
}

export function captureOutput(): Captured {
  const out: string[] = [];
  const err: string[] = [];
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    wake();
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    wake();
    return true;
  });
  const wait = async (text: () => string, predicate: (line: string) => boolean): Promise<string> => {
    for (;;) {
      const found = text().split('\n').find(predicate);
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return {
    out: () => out.join(''),
    err: () => err.join(''),
    waitForLine: (predicate) => wait(() => out.join(''), predicate),
    waitForErrLine: (predicate) => wait(() => err.join(''), predicate),
  };
}
