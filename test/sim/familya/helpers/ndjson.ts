/**
 * Reads a gateway NDJSON stream (global fetch) line by line; tests await the first line matching a
 * predicate, never a fixed delay.
 */
export type Line = Record<string, unknown>;

export class NdjsonReader {
  readonly lines: Line[] = [];
  private waiters: (() => void)[] = [];
  private done = false;

  private constructor(private readonly controller: AbortController) {}

  static async open(url: string, token: string, body: unknown): Promise<NdjsonReader> {
    const controller = new AbortController();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (response.status !== 200) throw new Error(`stream refused: ${response.status} ${await response.text()}`);
    const reader = new NdjsonReader(controller);
    void reader.pump(response.body);
    return reader;
  }

  private async pump(body: ReadableStream<Uint8Array> | null): Promise<void> {
    if (body !== null) {
      const reader = body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let newline = buffer.indexOf('\n');
          while (newline >= 0) {
            const line = buffer.slice(0, newline).trim();
            buffer = buffer.slice(newline + 1);
            if (line !== '') this.lines.push(JSON.parse(line) as Line);
            newline = buffer.indexOf('\n');
          }
          this.wake();
        }
      } catch {
        // aborted by the test
      }
    }
    this.done = true;
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  async until(predicate: (line: Line) => boolean): Promise<Line> {
    for (;;) {
      const found = this.lines.find(predicate);
      if (found !== undefined) return found;
      if (this.done) throw new Error(`stream ended without a matching line: ${JSON.stringify(this.lines)}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): void {
    this.controller.abort();
  }
}
