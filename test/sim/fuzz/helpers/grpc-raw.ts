/**
 * A raw gRPC client for fuzzing the simulator's gRPC door: a grpc-js Client with identity (de)serializers,
 * so the request bytes are exactly the fuzzed ones and answers come back as bytes with their status. Every
 * call has a deadline (a server that does not answer in time fails the property as a hang); a stream is
 * read up to its first message (or its end) and then cancelled.
 */
import { Client, credentials, status, type Metadata, type ServiceError } from '@grpc/grpc-js';
import { exchangeProtocol, type MethodRef } from '../../../../src/exchange/grpc/protocol/index.ts';

export const CALL_DEADLINE_MS = 5_000;

const identity = (bytes: Buffer): Buffer => bytes;

export interface RawAnswer {
  /** status.OK for an answer (unary) or a first message (stream); the error status otherwise. */
  code: status;
  details: string;
  /** The answer or first message bytes when OK. */
  message: Buffer | undefined;
}

export class RawGrpc {
  private readonly client: Client;

  constructor(address: string) {
    this.client = new Client(address, credentials.createInsecure());
  }

  unary(ref: MethodRef, bytes: Buffer, metadata: Metadata): Promise<RawAnswer> {
    const path = exchangeProtocol().method(ref).path;
    return new Promise((resolve) => {
      this.client.makeUnaryRequest<Buffer, Buffer>(
        path,
        identity,
        identity,
        bytes,
        metadata,
        { deadline: Date.now() + CALL_DEADLINE_MS },
        (error, response) => {
          if (error !== null) resolve({ code: error.code, details: error.details, message: undefined });
          else resolve({ code: status.OK, details: '', message: response });
        },
      );
    });
  }

  /** Opens the stream, waits for its first message (then cancels it) or its end. */
  firstMessage(ref: MethodRef, bytes: Buffer, metadata: Metadata): Promise<RawAnswer> {
    const path = exchangeProtocol().method(ref).path;
    return new Promise((resolve) => {
      const call = this.client.makeServerStreamRequest<Buffer, Buffer>(path, identity, identity, bytes, metadata, {
        deadline: Date.now() + CALL_DEADLINE_MS,
      });
      let done = false;
      const finish = (answer: RawAnswer): void => {
        if (done) return;
        done = true;
        resolve(answer);
        call.cancel();
      };
      call.on('data', (message: Buffer) => finish({ code: status.OK, details: '', message }));
      call.on('error', (error: ServiceError) => {
        if (!done) finish({ code: error.code, details: error.details, message: undefined });
      });
      call.on('end', () => finish({ code: status.OK, details: 'ended without a message', message: undefined }));
    });
  }

  /** Opens `count` streams at once and waits for each one's first message or status; cancels them all. */
  async openAtOnce(ref: MethodRef, bytes: Buffer, metadata: Metadata, count: number): Promise<RawAnswer[]> {
    const path = exchangeProtocol().method(ref).path;
    const calls = Array.from({ length: count }, () =>
      this.client.makeServerStreamRequest<Buffer, Buffer>(path, identity, identity, bytes, metadata, {
        deadline: Date.now() + CALL_DEADLINE_MS,
      }),
    );
    try {
      return await Promise.all(
        calls.map(
          (call) =>
            new Promise<RawAnswer>((resolve) => {
              call.once('data', (message: Buffer) => resolve({ code: status.OK, details: '', message }));
              call.on('error', (error: ServiceError) => resolve({ code: error.code, details: error.details, message: undefined }));
              call.once('end', () => resolve({ code: status.OK, details: 'ended without a message', message: undefined }));
            }),
        ),
      );
    } finally {
      for (const call of calls) call.cancel();
    }
  }

  close(): void {
    this.client.close();
  }
}
