/**
 * Bytes that are not a valid protobuf encoding of the message a method expects. The loader's deserializers
 * (both sides: the server's request deserializer, the client's response deserializer) return an
 * `UndecodableMessage` instead of throwing, because grpc-js turns a throwing deserializer into an opaque
 * INTERNAL status (server) or a cancelled call (client). The codecs then refuse it like any malformed
 * message, with a validation error naming the message and the reason: the server answers INVALID_ARGUMENT,
 * the client reports GRPC_BAD_RESPONSE (a stream carries on with an `invalidMessage` event).
 */
import { TradebotError } from '../../../errors.ts';

export const UNDECODABLE_MESSAGE = 'GRPC_UNDECODABLE_MESSAGE';

export class UndecodableMessage {
  constructor(
    /** e.g. `OrderEntryAPI.InsertOrder request`. */
    readonly what: string,
    readonly reason: string,
  ) {}

  /** The validation error the codecs throw for it. */
  error(): TradebotError {
    return new TradebotError(
      UNDECODABLE_MESSAGE,
      `the ${this.what} is not a valid protobuf message (${this.reason}): ` +
        'send the message type the method declares in proto/exchange.proto',
      {
        kind: 'validation',
      },
    );
  }
}

/**
 * Why the bytes did not decode: protobufjs's own message for what it checks (`index out of range`,
 * `invalid wire type 7 at offset 3`); a TypeError from inside the decoder (a damaged google.protobuf.Value,
 * say) is reported without its internal wording.
 */
function reasonOf(error: unknown): string {
  if (error instanceof TypeError) return 'malformed field contents: the protobuf decoder could not read them';
  return error instanceof Error ? error.message : String(error);
}

/** `deserialize`, returning an UndecodableMessage where it would throw. */
export function tolerantDeserializer(what: string, deserialize: (bytes: Buffer) => object): (bytes: Buffer) => object {
  return (bytes) => {
    try {
      return deserialize(bytes);
    } catch (error) {
      return new UndecodableMessage(what, reasonOf(error));
    }
  };
}
