// NDJSON streams: any chunking of the same bytes gives the same messages (property), a final line without a
// newline counts, error and unparsable lines end the stream with typed errors after the earlier messages,
// and unsubscribing aborts the HTTP request server-side.
import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { firstValueFrom, toArray } from 'rxjs';
import type { Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport, NdjsonSplitter, streamNdjson } from '../../../src/exchange/transport/index.ts';
import type { StreamOpener } from '../../../src/exchange/transport/index.ts';
import { ManualScheduler } from './helpers/schedulers.ts';
import { deferred, readBody, sendJson, servers } from './helpers/test-server.ts';

const registry = servers();
const transports: HttpTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
  await registry.closeAll();
});

function transport(url: string, scheduler?: ManualScheduler): HttpTransport {
  const t = new HttpTransport({ baseUrl: url, ...(scheduler === undefined ? {} : { scheduler }) });
  transports.push(t);
  return t;
}

/** Collects a stream's messages, its first message and its ending ('complete' or the error). */
function collect(source: Observable<unknown>): { messages: unknown[]; first: Promise<void>; ended: Promise<unknown> } {
  const messages: unknown[] = [];
  const first = deferred();
  const ended = new Promise<unknown>((resolve) =>
    source.subscribe({
      next: (m) => {
        messages.push(m);
        first.resolve();
      },
      error: (e: unknown) => resolve(e),
      complete: () => resolve('complete'),
    }),
  );
  return { messages, first: first.promise, ended };
}

function ndjsonHead(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
}

describe('NdjsonSplitter', () => {
  it('gives the same messages for any chunking of the same bytes, with or without a final newline', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { minLength: 1, maxLength: 20 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 30 }),
        (values, trailingNewline, crlf, cutSeeds) => {
          const text = values.map((v) => JSON.stringify(v)).join(crlf ? '\r\n' : '\n') + (trailingNewline ? '\n' : '');
          const bytes = new TextEncoder().encode(text);
          const cuts = [...new Set(cutSeeds.map((s) => s % (bytes.length + 1)))].sort((a, b) => a - b);
          const splitter = new NdjsonSplitter();
          const lines = [];
          let from = 0;
          for (const cut of [...cuts, bytes.length]) {
            lines.push(...splitter.push(bytes.subarray(from, cut)));
            from = cut;
          }
          lines.push(...splitter.end());
          expect(lines.map((l) => JSON.parse(l.text) as unknown)).toEqual(values.map((v) => JSON.parse(JSON.stringify(v)) as unknown));
          expect(lines.map((l) => l.lineNumber)).toEqual(values.map((_v, i) => i + 1));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts blank lines for line numbers but does not return them', () => {
    const s = new NdjsonSplitter();
    expect([...s.push('{"a":1}\n\n  \n{"b":'), ...s.push('2}'), ...s.end()]).toEqual([
      { lineNumber: 1, text: '{"a":1}' },
      { lineNumber: 4, text: '{"b":2}' },
    ]);
  });
});

/** A StreamOpener whose response body yields exactly the given chunks. */
function chunkedOpener(chunks: readonly Uint8Array[]): StreamOpener {
  return {
    async openStream() {
      async function* body(): AsyncGenerator<Uint8Array> {
        for (const chunk of chunks) yield chunk;
      }
      return {
        status: 200,
        headers: {},
        body: Object.assign(body(), { destroy: () => undefined }),
        context: { method: 'POST', path: '/s', origin: 'test' },
      };
    },
  };
}

describe('streamNdjson chunking', () => {
  it('emits the same messages for any chunking of the same lines (with or without a final newline)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue(), { minLength: 1, maxLength: 15 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (values, trailingNewline, cutSeeds) => {
          const lines = values.map((v) => JSON.stringify({ result: v }));
          const bytes = new TextEncoder().encode(lines.join('\n') + (trailingNewline ? '\n' : ''));
          const cuts = [...new Set(cutSeeds.map((s) => s % (bytes.length + 1))), bytes.length].sort((a, b) => a - b);
          const chunks = cuts.map((cut, i) => bytes.subarray(i === 0 ? 0 : (cuts[i - 1] as number), cut));
          const messages = await firstValueFrom(streamNdjson(chunkedOpener(chunks), { path: '/s' }).pipe(toArray()));
          expect(messages).toEqual(lines.map((l) => JSON.parse(l) as unknown));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('streamNdjson over HTTP', () => {
  it('POSTs the body and headers and emits lines as they arrive, across chunk boundaries inside lines', async () => {
    const firstSeen = deferred();
    const received = deferred<{ body: string; auth: string | undefined }>();
    const server = await registry.start(async (req, res) => {
      received.resolve({ body: await readBody(req), auth: req.headers.authorization });
      ndjsonHead(res);
      res.write('{"result":{"n":1}}\n{"result":{"n"');
      await firstSeen.promise; // the client has the first line before the rest of the second exists
      res.write(':2}}\n{"result":{"text":"caf');
      res.end('é"}}'); // the last line has no trailing newline
    });
    const stream = transport(server.url).streamNdjson({
      path: '/api/v1beta1/create_order_subscription',
      body: { accounts: ['firms/f/accounts/a'] },
      headers: { authorization: 'tok' },
    });
    const messages: unknown[] = [];
    const done = new Promise<void>((resolve, reject) =>
      stream.subscribe({
        next: (m) => {
          messages.push(m);
          if (messages.length === 1) firstSeen.resolve();
        },
        error: reject,
        complete: resolve,
      }),
    );
    await done;
    expect(messages).toEqual([{ result: { n: 1 } }, { result: { n: 2 } }, { result: { text: 'café' } }]);
    expect(await received.promise).toEqual({ body: '{"accounts":["firms/f/accounts/a"]}', auth: 'tok' });
  });

  it('ends with STREAM_ERROR on an error line, after the messages before it', async () => {
    const server = await registry.start((_req, res) => {
      ndjsonHead(res);
      res.write('{"result":{"heartbeat":{}}}\n');
      res.end('{"error":{"code":16,"message":"UNAUTHENTICATED","details":[{"@type":"x"}]}}');
    });
    const { messages, ended } = collect(transport(server.url).streamNdjson({ path: '/s', body: {} }));
    const error = await ended;
    expect(messages).toEqual([{ result: { heartbeat: {} } }]);
    expect(error).toMatchObject({
      code: 'STREAM_ERROR',
      kind: 'authentication',
      details: { grpcCode: 16, grpcMessage: 'UNAUTHENTICATED', line: 2, errorDetails: [{ '@type': 'x' }] },
    });
  });

  it('maps the gRPC code of an error line to a kind (14 -> connectivity, 3 -> rejection)', async () => {
    const server = await registry.start((req, res) => {
      ndjsonHead(res);
      res.end(req.url === '/a' ? '{"error":{"code":14,"message":"UNAVAILABLE"}}\n' : '{"error":{"code":3,"message":"INVALID_ARGUMENT"}}\n');
    });
    const t = transport(server.url);
    expect(await collect(t.streamNdjson({ path: '/a' })).ended).toMatchObject({ code: 'STREAM_ERROR', kind: 'connectivity' });
    expect(await collect(t.streamNdjson({ path: '/b' })).ended).toMatchObject({ code: 'STREAM_ERROR', kind: 'rejection' });
  });

  it('ends with STREAM_BAD_LINE naming the line number, keeping the messages before it', async () => {
    const server = await registry.start((_req, res) => {
      ndjsonHead(res);
      res.end(`{"result":1}\n\n{not json ${'z'.repeat(1000)}\n{"result":2}\n`);
    });
    const { messages, ended } = collect(transport(server.url).streamNdjson({ path: '/s' }));
    const error = await ended;
    expect(messages).toEqual([{ result: 1 }]);
    expect(error).toMatchObject({ code: 'STREAM_BAD_LINE', kind: 'connectivity', details: { line: 3 } });
    expect((error as Error).message).toContain('line 3');
    expect((error as { details: { content: string } }).details.content.length).toBeLessThan(300);
  });

  it('unsubscribing aborts the request: the server sees the connection close', async () => {
    const closed = deferred();
    const server = await registry.start((req, res) => {
      res.on('close', () => closed.resolve());
      ndjsonHead(res);
      res.write('{"result":{"heartbeat":{}}}\n');
      void req;
    });
    const first = await firstValueFrom(transport(server.url).streamNdjson({ path: '/s' })); // takes one, unsubscribes
    expect(first).toEqual({ result: { heartbeat: {} } });
    await closed.promise;
  });

  it('fails with the mapped status error when the stream cannot open (401)', async () => {
    const server = await registry.start((_req, res) => sendJson(res, 401, { code: 16, message: 'UNAUTHENTICATED' }));
    expect(await collect(transport(server.url).streamNdjson({ path: '/s' })).ended).toMatchObject({
      code: 'TRANSPORT_UNAUTHORIZED',
      kind: 'authentication',
    });
  });

  it('fails with a connectivity error when the server drops the connection mid-stream', async () => {
    const server = await registry.start((req, res) => {
      ndjsonHead(res);
      res.write('{"result":1}\n', () => req.socket.destroy());
    });
    const { messages, ended } = collect(transport(server.url).streamNdjson({ path: '/s' }));
    expect(await ended).toMatchObject({ code: 'TRANSPORT_CONNECTION_RESET', kind: 'connectivity' });
    expect(messages).toEqual([{ result: 1 }]);
  });

  it('ends open streams with TRANSPORT_CLOSED when the transport closes', async () => {
    const server = await registry.start((_req, res) => {
      ndjsonHead(res);
      res.write('{"n":1}\n');
    });
    const t = transport(server.url);
    const { first, ended } = collect(t.streamNdjson({ path: '/s' }));
    await first;
    await t.close();
    expect(await ended).toMatchObject({ code: 'TRANSPORT_CLOSED' });
  });

  it('completes when the server ends the body cleanly', async () => {
    const server = await registry.start((_req, res) => {
      ndjsonHead(res);
      res.end('{"result":{"snapshot":{"orders":[]}}}\n');
    });
    const all = await firstValueFrom(
      transport(server.url)
        .streamNdjson({ path: '/s', body: { snapshot_only: true } })
        .pipe(toArray()),
    );
    expect(all).toEqual([{ result: { snapshot: { orders: [] } } }]);
  });

  it('applies the call deadline to the headers only: an open stream outlives it', async () => {
    const scheduler = new ManualScheduler();
    const secondLine = deferred();
    const server = await registry.start(async (_req, res) => {
      ndjsonHead(res);
      res.write('{"n":1}\n');
      await secondLine.promise;
      res.end('{"n":2}\n');
    });
    const { messages, first, ended } = collect(transport(server.url, scheduler).streamNdjson({ path: '/s', timeoutMs: 1_000 }));
    await first;
    await scheduler.advanceBy(60_000);
    secondLine.resolve();
    expect(await ended).toBe('complete');
    expect(messages).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
