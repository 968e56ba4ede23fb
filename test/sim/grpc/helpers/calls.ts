/**
 * Raw calls for the server tests: a GrpcChannel (the client's thin grpc-js wrapper, no retries, no
 * decoding) so the tests see exactly the messages and statuses the server sends.
 */
import { firstValueFrom, map, take, toArray } from 'rxjs';
import { bearerMetadata } from '../../../../src/exchange/grpc/index.ts';
import type { GrpcChannel, GrpcError } from '../../../../src/exchange/grpc/index.ts';
import type { MethodRef } from '../../../../src/exchange/grpc/protocol/index.ts';

export type Json = Record<string, unknown>;

export interface StreamOutcome {
  messages: Json[];
  /** The error status, or undefined when the stream ended OK. */
  error: GrpcError | undefined;
}

/** Runs a stream to its end (it must end by itself: snapshot_only, or a refusal). */
export function runToEnd(channel: GrpcChannel, ref: MethodRef, request: object, token: string): Promise<StreamOutcome> {
  const messages: Json[] = [];
  return new Promise((resolve) => {
    channel.serverStream(ref, request, bearerMetadata(token)).subscribe({
      next: (m) => messages.push(m as Json),
      error: (error: GrpcError) => resolve({ messages, error }),
      complete: () => resolve({ messages, error: undefined }),
    });
  });
}

/** The first `count` messages of a stream (then it is cancelled). */
export function firstMessages(channel: GrpcChannel, ref: MethodRef, request: object, token: string, count: number): Promise<Json[]> {
  return firstValueFrom(
    channel.serverStream(ref, request, bearerMetadata(token)).pipe(
      map((m) => m as Json),
      take(count),
      toArray(),
    ),
  );
}

/** The status a unary call fails with (the test fails if it succeeds). */
export async function unaryError(channel: GrpcChannel, ref: MethodRef, request: object, token: string): Promise<GrpcError> {
  try {
    await channel.unary(ref, request, bearerMetadata(token), 5_000);
  } catch (error) {
    return error as GrpcError;
  }
  throw new Error(`${ref.service}.${ref.method} succeeded`);
}
