/**
 * The gRPC protocol's names: where the protocol is (`proto/exchange.proto`, the one file that declares the
 * proto package, the services and every message) and every service with its methods and their kind (unary
 * or server stream). The package name itself lives only in that file: the loader reads it from there
 * (loader.ts), and method paths follow it. The simulator's server and the client both use these tables, so
 * a renamed method fails at load time on both sides instead of at the first call.
 */
import { packageFile } from '../../../package/paths.ts';

/** Directory of the .proto source (the repository's `proto/`). */
export const PROTO_DIR = packageFile('proto');

/** The protocol file: the package, the services, their messages, the resources and the enums. */
export const PROTO_FILE = 'exchange.proto';

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
