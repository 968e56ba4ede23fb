/**
 * The control endpoint's path on its own (no zod, no server): what `tradebot control` calls, loaded at every
 * `tradebot` start; the endpoint itself is control-server.ts.
 */
export const CONTROL_PATH = '/control/state';
