/**
 * The simulator's state file (`sim.stateFile`): a restarted simulator keeps its exchange.
 *
 * Modules:
 * - schema.ts      the file's shape (version 1), validated on read
 * - core-state.ts  capture from / restore into an ExchangeCore; what is kept and what is not
 * - state-file.ts  atomic write (temp, fsync, rename), validated read
 * - persister.ts   load at start, periodic writes, the final write on close; the SIGKILL guarantee
 */
export { loadState, startStatePersister } from './persister.ts';
export type { StatePersister } from './persister.ts';
export { captureCore, restoreCore, RESTORE_ID_GAP } from './core-state.ts';
export type { CaptureLimits } from './core-state.ts';
export { readStateFile, writeStateFile } from './state-file.ts';
export { STATE_FILE_VERSION } from './schema.ts';
export type { StateFile } from './schema.ts';
