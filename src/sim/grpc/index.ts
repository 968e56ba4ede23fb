/**
 * The simulator's gRPC door: `startGrpcServer` serves every service of proto/ over the shared ExchangeCore.
 *
 * Modules:
 * - server.ts          startGrpcServer: services, limits, bind, dropAll, close
 * - auth.ts            bearer-token authentication (GrpcTokenVerifier) and the scope of each method
 * - familya-verifier.ts the verifier backed by the family A token service (what startSim plugs in)
 * - calls.ts           typed adapters over grpc-js handlers; StreamSink (send/end/fail/timers/cleanups)
 * - stream-registry.ts per-firm concurrent stream limit, dropAll
 * - journal.ts         sequenced replay buffer and resume tokens of the drop copy / trade capture streams
 * - order-entry.ts     OrderEntryAPI unary methods (through src/sim/exchange/commands.ts)
 * - order-stream.ts    CreateOrderSubscription
 * - market-data.ts     CreateMarketDataSubscription
 * - positions.ts       CreatePositionSubscription
 * - drop-copy.ts       CreateDropCopySubscription, CreateTradeCaptureReportSubscription, instrument states
 * - refdata-reports.ts ListInstruments, SearchTrades
 * - context.ts, errors.ts  shared handler context; gRPC status errors and their mapping
 */
export { startGrpcServer } from './server.ts';
export type { GrpcServerLimits, GrpcServerOptions, RunningGrpcServer } from './server.ts';
export { METHOD_SCOPES } from './auth.ts';
export type { GrpcCaller, GrpcTokenVerifier, VerifiedToken } from './auth.ts';
export { GrpcStatusError } from './errors.ts';
export { familyAVerifier } from './familya-verifier.ts';
export type { FamilyAVerifierDeps } from './familya-verifier.ts';
