/**
 * GrpcChannel: one HTTP/2 connection to the exchange's gRPC endpoint (grpc-js `Client`), with the methods
 * typed at the boundary: requests are message objects built by the protocol codecs, responses come out as
 * `unknown` for the codecs to validate. `serverStream` is a cold Observable (subscribing starts the call,
 * unsubscribing cancels it); `unary` is a Promise with a deadline (grpc-js deadlines are wall-clock
 * dates). Failures are GrpcErrors; `close()` ends the open streams with GRPC_CLOSED.
 * Metadata is built per call from the access token: `authorization: Bearer <token>`.
 */
import { Client, Metadata, credentials as grpcCredentials } from '@grpc/grpc-js';
import type { ChannelCredentials, ChannelOptions, ServiceError } from '@grpc/grpc-js';
import { Observable } from 'rxjs';
import { exchangeProtocol } from './protocol/index.ts';
import type { MethodRef } from './protocol/index.ts';
import { GrpcClientErrorCode, GrpcError, toGrpcError } from './errors.ts';

export interface GrpcChannelOptions {
  /** `host:port`. */
  readonly address: string;
  /** Default: insecure (the simulator on loopback). Pass `credentials.createSsl(...)` for TLS. */
  readonly credentials?: ChannelCredentials;
  readonly channelOptions?: ChannelOptions;
}

export function bearerMetadata(token: string): Metadata {
  const metadata = new Metadata();
  if (token !== '') metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

const asBytes = (bytes: Buffer): Buffer => bytes;

const label = (ref: MethodRef): string => `${ref.service}.${ref.method}`;

export class GrpcChannel {
  private readonly client: Client;
  private closed = false;
  /** Open server streams: `close()` ends each with GRPC_CLOSED. */
  private readonly open = new Set<() => void>();

  constructor(options: GrpcChannelOptions) {
    this.client = new Client(options.address, options.credentials ?? grpcCredentials.createInsecure(), {
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
      ...options.channelOptions,
    });
  }

  /**
   * The method's responses; the Observable errors with a GrpcError on a non-OK status. `rawResponses`: each
   * response as its bytes (a Buffer), for a caller that reads them itself (see protocol/market-data.ts).
   */
  serverStream(ref: MethodRef, request: object, metadata: Metadata, rawResponses = false): Observable<unknown> {
    return new Observable<unknown>((subscriber) => {
      if (this.closed) {
        subscriber.error(this.closedError(ref));
        return undefined;
      }
      const wire = exchangeProtocol().method(ref);
      const call = this.client.makeServerStreamRequest<object, unknown>(
        wire.path,
        wire.serializeRequest,
        rawResponses ? asBytes : wire.deserializeResponse,
        request,
        metadata,
      );
      let done = false;
      const finish = (): boolean => {
        if (done) return false;
        done = true;
        this.open.delete(abort);
        return true;
      };
      const abort = (): void => {
        if (!finish()) return;
        call.cancel();
        subscriber.error(this.closedError(ref));
      };
      this.open.add(abort);
      call.on('data', (message: unknown) => {
        if (!done) subscriber.next(message);
      });
      call.on('error', (error: ServiceError) => {
        if (finish()) subscriber.error(toGrpcError(error, label(ref)));
      });
      call.on('end', () => {
        if (finish()) subscriber.complete();
      });
      return () => {
        if (finish()) call.cancel();
      };
    });
  }

  /** One request, one response, within `deadlineMs`. */
  unary(ref: MethodRef, request: object, metadata: Metadata, deadlineMs: number): Promise<unknown> {
    if (this.closed) return Promise.reject(this.closedError(ref));
    const wire = exchangeProtocol().method(ref);
    return new Promise<unknown>((resolve, reject) => {
      this.client.makeUnaryRequest<object, unknown>(
        wire.path,
        wire.serializeRequest,
        wire.deserializeResponse,
        request,
        metadata,
        { deadline: Date.now() + deadlineMs },
        (error, response) => {
          if (error !== null) reject(toGrpcError(error, label(ref)));
          else resolve(response);
        },
      );
    });
  }

  /** Ends every open stream with GRPC_CLOSED and closes the connection; later calls fail with GRPC_CLOSED. */
  close(): void {
    this.closed = true;
    for (const abort of [...this.open]) abort();
    this.client.close();
  }

  private closedError(ref: MethodRef): GrpcError {
    return new GrpcError(GrpcClientErrorCode.Closed, `${label(ref)}: the gRPC client is closed`, { kind: 'internal' });
  }
}
