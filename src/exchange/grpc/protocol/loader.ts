/**
 * Loads the exchange's protocol file (proto/exchange.proto) with @grpc/proto-loader (dynamic loading, no
 * generated code), reads the proto package from it (the package its services are declared in: the name is
 * written in that file only) and checks the file against the service table in package.ts: every service and
 * method must exist, in that one package, with the expected streaming kind, and no type may live outside it.
 * The result is cached per process. Loader options are fixed so that a message's JS form is the gateway's
 * snake_case JSON form: `keepCase` (snake_case keys), `longs: String`, `enums: String` (names),
 * `defaults: false` (absent fields stay absent, as proto3 JSON omits defaults) and `oneofs: true`.
 * Deserializers never throw: bytes that do not decode come out as an UndecodableMessage (undecodable.ts),
 * which the codecs refuse with a clear validation error.
 */
import { loadSync } from '@grpc/proto-loader';
import type { MethodDefinition, PackageDefinition, ServiceDefinition } from '@grpc/proto-loader';
import { TradebotError } from '../../../errors.ts';
import { PROTO_DIR, PROTO_FILE, SERVICES } from './package.ts';
import type { MethodKind, MethodRef, ServiceName } from './package.ts';
import { tolerantDeserializer } from './undecodable.ts';

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
  /** The proto package, as declared in proto/exchange.proto. */
  readonly packageName: string;
  /** The fully qualified service name, `<package>.<service>`. */
  qualifiedService(name: ServiceName): string;
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

const serviceNames = (): ServiceName[] => Object.keys(SERVICES) as ServiceName[];

/** The package each expected service is declared in (a service found under several names is a problem). */
function packagesOf(definition: PackageDefinition, problems: string[]): Set<string> {
  const packages = new Set<string>();
  for (const service of serviceNames()) {
    const names = Object.keys(definition).filter(
      (name) => (name === service || name.endsWith(`.${service}`)) && isService(definition[name] as PackageDefinition[string]),
    );
    if (names.length === 0) problems.push(`service ${service} is missing`);
    else if (names.length > 1) problems.push(`service ${service} is declared more than once: ${names.join(', ')}`);
    else packages.add((names[0] as string).slice(0, -(service.length + 1)));
  }
  return packages;
}

/** Checks the loaded definitions against SERVICES; returns the package and every problem at once. */
function check(definition: PackageDefinition): { packageName: string; problems: string[] } {
  const problems: string[] = [];
  const packages = packagesOf(definition, problems);
  if (packages.size > 1) problems.push(`the services are declared in several packages (${[...packages].join(', ')}): declare them in one`);
  const packageName = packages.size === 1 ? ([...packages][0] as string) : '';
  if (packages.size === 1 && packageName === '') problems.push('the file must declare its package ("package <name>;")');
  if (packageName === '') return { packageName, problems };
  for (const name of Object.keys(definition)) {
    if (!name.startsWith(`${packageName}.`) && !name.startsWith('google.protobuf.'))
      problems.push(`${name} is outside the package ${packageName}`);
  }
  for (const [service, methods] of Object.entries(SERVICES)) {
    const found = definition[`${packageName}.${service}`];
    if (found === undefined || !isService(found)) continue;
    for (const [method, kind] of Object.entries(methods)) {
      const m = found[method];
      if (m === undefined) problems.push(`method ${service}.${method} is missing`);
      else if (kindOf(m) !== kind) problems.push(`method ${service}.${method} must be ${kind}`);
    }
  }
  return { packageName, problems };
}

/** The service with deserializers that return an UndecodableMessage instead of throwing. */
function tolerantService(name: ServiceName, service: ServiceDefinition): ServiceDefinition {
  const out: ServiceDefinition = {};
  for (const [method, m] of Object.entries(service)) {
    out[method] = {
      ...m,
      requestDeserialize: tolerantDeserializer(`${name}.${method} request`, m.requestDeserialize),
      responseDeserialize: tolerantDeserializer(`${name}.${method} response`, m.responseDeserialize),
    };
  }
  return out;
}

/**
 * Loads and checks a protocol file (default: the repository's proto/exchange.proto); throws GRPC_PROTO_INVALID
 * naming every mismatch. `exchangeProtocol()` is the cached default; other files are for tests of the checks.
 */
export function loadExchangeProtocol(dir: string = PROTO_DIR, file: string = PROTO_FILE): ExchangeProtocol {
  let definition: PackageDefinition;
  try {
    definition = loadSync(file, { ...LOADER_OPTIONS, includeDirs: [dir] });
  } catch (cause) {
    throw new ProtocolError(`cannot load ${file} from ${dir}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  const { packageName, problems } = check(definition);
  if (problems.length > 0) throw new ProtocolError(`${file} does not match src/exchange/grpc/protocol/package.ts: ${problems.join('; ')}`);
  const qualifiedService = (name: ServiceName): string => `${packageName}.${name}`;
  const services = new Map<ServiceName, ServiceDefinition>();
  for (const name of serviceNames()) services.set(name, tolerantService(name, definition[qualifiedService(name)] as ServiceDefinition));
  const methods = new Map<string, WireMethod>();
  return {
    packageName,
    qualifiedService,
    service(name) {
      const service = services.get(name);
      if (service === undefined) throw new ProtocolError(`unknown service ${name}`);
      return service;
    },
    method(ref) {
      const key = `${ref.service}/${ref.method}`;
      let wire = methods.get(key);
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
        methods.set(key, wire);
      }
      return wire;
    },
  };
}

let cached: ExchangeProtocol | undefined;

/** The exchange protocol, loaded once per process; throws GRPC_PROTO_INVALID naming every mismatch. */
export function exchangeProtocol(): ExchangeProtocol {
  cached ??= loadExchangeProtocol();
  return cached;
}
