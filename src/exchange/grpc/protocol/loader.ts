/**
 * Loads the exchange's .proto files with @grpc/proto-loader (dynamic loading, no generated code) and checks
 * them against the service table in package.ts: every service and method must exist under PROTO_PACKAGE
 * with the expected streaming kind, and no file may declare another package. The result is cached per
 * process. Loader options are fixed so that a message's JS form is the gateway's snake_case JSON form:
 * `keepCase` (snake_case keys), `longs: String`, `enums: String` (names), `defaults: false` (absent
 * fields stay absent, as proto3 JSON omits defaults) and `oneofs: true`.
 */
import { loadSync } from '@grpc/proto-loader';
import type { MethodDefinition, PackageDefinition, ServiceDefinition } from '@grpc/proto-loader';
import { TradebotError } from '../../../errors.ts';
import { PROTO_DIR, PROTO_FILES, PROTO_PACKAGE, SERVICES, methodPath, qualifiedService } from './package.ts';
import type { MethodKind, MethodRef, ServiceName } from './package.ts';

export const LOADER_OPTIONS = { keepCase: true, longs: String, enums: String, defaults: false, oneofs: true } as const;

/** One method's path and (de)serializers, typed at the boundary: what comes off the wire is `unknown`. */
export interface WireMethod {
  readonly path: string;
  readonly kind: MethodKind;
  readonly serializeRequest: (value: object) => Buffer;
  readonly deserializeRequest: (bytes: Buffer) => unknown;
  readonly serializeResponse: (value: object) => Buffer;
  readonly deserializeResponse: (bytes: Buffer) => unknown;
}

export interface ExchangeProtocol {
  /** The service definition for grpc-js `Server.addService`. */
  service(name: ServiceName): ServiceDefinition;
  method(ref: MethodRef): WireMethod;
}

export class ProtocolError extends TradebotError {
  constructor(message: string) {
    super('GRPC_PROTO_INVALID', message, { kind: 'config' });
    this.name = 'ProtocolError';
  }
}

function isService(definition: PackageDefinition[string]): definition is ServiceDefinition {
  return !('format' in definition);
}

function kindOf(method: MethodDefinition<object, object>): MethodKind | 'other' {
  if (!method.requestStream && !method.responseStream) return 'unary';
  if (!method.requestStream && method.responseStream) return 'serverStream';
  return 'other';
}

/** Checks the loaded definitions against SERVICES; returns every problem at once. */
function problemsOf(definition: PackageDefinition): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(definition)) {
    if (!name.startsWith(`${PROTO_PACKAGE}.`) && !name.startsWith('google.protobuf.')) {
      problems.push(`${name} is outside the package ${PROTO_PACKAGE}: every file in proto/ must declare "package ${PROTO_PACKAGE};"`);
    }
  }
  for (const [service, methods] of Object.entries(SERVICES)) {
    const found = definition[qualifiedService(service as ServiceName)];
    if (found === undefined || !isService(found)) {
      problems.push(`service ${qualifiedService(service as ServiceName)} is missing`);
      continue;
    }
    for (const [method, kind] of Object.entries(methods)) {
      const m = found[method];
      if (m === undefined) problems.push(`method ${service}.${method} is missing`);
      else if (kindOf(m) !== kind) problems.push(`method ${service}.${method} must be ${kind}`);
    }
  }
  return problems;
}

function build(): ExchangeProtocol {
  let definition: PackageDefinition;
  try {
    definition = loadSync([...PROTO_FILES], { ...LOADER_OPTIONS, includeDirs: [PROTO_DIR] });
  } catch (cause) {
    throw new ProtocolError(`cannot load the .proto files in ${PROTO_DIR}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  const problems = problemsOf(definition);
  if (problems.length > 0) throw new ProtocolError(`the .proto files do not match src/exchange/grpc/protocol/package.ts: ${problems.join('; ')}`);
  const services = new Map<ServiceName, ServiceDefinition>();
  for (const name of Object.keys(SERVICES) as ServiceName[]) services.set(name, definition[qualifiedService(name)] as ServiceDefinition);
  const methods = new Map<string, WireMethod>();
  return {
    service(name) {
      const service = services.get(name);
      if (service === undefined) throw new ProtocolError(`unknown service ${name}`);
      return service;
    },
    method(ref) {
      const path = methodPath(ref);
      let wire = methods.get(path);
      if (wire === undefined) {
        const m = services.get(ref.service)?.[ref.method];
        if (m === undefined) throw new ProtocolError(`unknown method ${ref.service}.${ref.method}`);
        wire = {
          path: m.path,
          kind: kindOf(m) === 'unary' ? 'unary' : 'serverStream',
          serializeRequest: m.requestSerialize,
          deserializeRequest: m.requestDeserialize,
          serializeResponse: m.responseSerialize,
          deserializeResponse: m.responseDeserialize,
        };
        methods.set(path, wire);
      }
      return wire;
    },
  };
}

let cached: ExchangeProtocol | undefined;

/** The exchange protocol, loaded once per process; throws GRPC_PROTO_INVALID naming every mismatch. */
export function exchangeProtocol(): ExchangeProtocol {
  cached ??= build();
  return cached;
}
