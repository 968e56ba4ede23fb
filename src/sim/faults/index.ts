/**
 * Fault injection for the simulator (`sim.faults` and `RunningSim.faults`), serving the reliability tests
 * and soaks: dropped and stalled streams, duplicated and reordered order stream executions and market data
 * book updates, injected 429 / 5xx answers, replies held past the client's timeout and connections cut
 * mid-reply. Short token lifetimes are plain config (`sim.gateway.accessTokenTtlSeconds`), a restart with
 * state is `sim.stateFile` (src/sim/state).
 *
 * Modules:
 * - controller.ts     FaultController / SimFaults: the API, the configured and periodic faults
 * - http-faults.ts    per-request decisions: error before processing, delay or reset after
 * - stream-faults.ts  stream wrappers (NDJSON and gRPC): stall; duplicate and reorder executions and book updates
 * - stats.ts          counters of what was injected
 */
export { FaultController } from './controller.ts';
export type { PathOption, SimFaults } from './controller.ts';
export type { HttpFaultProbabilities } from './http-faults.ts';
export { HOLD_MS, garbledKindOf, isBookUpdate, isExecutionUpdate } from './stream-faults.ts';
export type { GarbledKind, StreamGarbling } from './stream-faults.ts';
export type { FaultStats } from './stats.ts';
