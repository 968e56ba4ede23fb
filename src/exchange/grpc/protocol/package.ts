/**
 * The gRPC protocol's names in one place: the proto package (`tradebot.exchange.v1`, which every file in
 * `proto/` declares; the loader refuses to start when they disagree), the .proto files, and every service
 * with its methods and their kind (unary or server stream). The simulator's server and the client both use
 * these tables, so a renamed method fails at load time on both sides instead of at the first call.
 */
import { fileURLToPath } from 'node:url';

/** The proto package of every service and message. */
export const PROTO_PACKAGE = 'tradebot.exchange.v1';

/** Directory of the .proto sources (the repository's `proto/`). */
export const PROTO_DIR = fileURLToPath(new URL('../../../../proto/', import.meta.url));

/** The files that declare services; they import the rest (enums.proto, resources.proto). */
export const PROTO_FILES = ['order_entry.proto', 'market_data.proto', 'positions.proto', 'drop_copy.proto', 'ref_data.proto', 'reports.proto'] as const;

export type MethodKind = 'unary' | 'serverStream';

/** Services and methods named in EXCHANGE_API_NOTES.md ("Streams"). */
export const SERVICES = {
  OrderEntryAPI: {
    InsertOrder: 'unary',
    InsertOrderList: 'unary',
    PreviewOrder: 'unary',
    CancelOrder: 'unary',
    CancelOrderList: 'unary',
    CancelReplaceOrder: 'unary',
    GetOpenOrders: 'unary',
    CreateOrderSubscription: 'serverStream',
  },
  MarketDataSubscriptionAPI: {
    CreateMarketDataSubscription: 'serverStream',
  },
  PositionAPI: {
    CreatePositionSubscription: 'serverStream',
  },
  DropCopyAPI: {
    CreateDropCopySubscription: 'serverStream',
    CreateTradeCaptureReportSubscription: 'serverStream',
    CreateInstrumentStateChangeSubscription: 'serverStream',
  },
  RefDataAPI: {
    ListInstruments: 'unary',
  },
  ReportAPI: {
    SearchTrades: 'unary',
  },
} as const satisfies Record<string, Record<string, MethodKind>>;

export type ServiceName = keyof typeof SERVICES;
export type MethodName<S extends ServiceName> = keyof (typeof SERVICES)[S] & string;

/** A method of a service, e.g. `{ service: 'DropCopyAPI', method: 'CreateDropCopySubscription' }`. */
export type MethodRef = { readonly [S in ServiceName]: { readonly service: S; readonly method: MethodName<S> } }[ServiceName];

/** A MethodRef built from a service and one of its methods (checked at compile time). */
export function methodRef<S extends ServiceName>(service: S, method: MethodName<S>): MethodRef {
  return { service, method } as MethodRef;
}

/** The fully qualified service name, e.g. `tradebot.exchange.v1.OrderEntryAPI`. */
export function qualifiedService(service: ServiceName): string {
  return `${PROTO_PACKAGE}.${service}`;
}

/** The HTTP/2 path of a method, e.g. `/tradebot.exchange.v1.OrderEntryAPI/InsertOrder`. */
export function methodPath(ref: MethodRef): string {
  return `/${qualifiedService(ref.service)}/${ref.method}`;
}
