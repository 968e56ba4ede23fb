/**
 * The operator's trading-state command, shared by the control endpoint (`POST /control/state`) and the web
 * console (`POST /console/api/trading-state`), with or without `?strategy=<id>`: the body's zod schema, its
 * parse (every failure says what to send instead), and applying it to a state machine, logged the same way
 * whoever sent it. Only the bot's HTTP servers load this module (zod is not loaded at every `tradebot` start).
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import type { TradingStateCause } from '../../engine/risk/trading-state.ts';
import { TRADING_STATES, type TradingState } from '../../engine/risk/trading-states.ts';

export const MAX_REASON_CHARS = 200;

/** What the endpoint reads and changes: a trading state machine (the bot's, or one strategy's). */
export interface ControlTarget {
  readonly state: TradingState;
  readonly cause: TradingStateCause;
  readonly reason: string;
  setState(state: TradingState, reason: string): void;
}

/** `{"state": "active" | "reducing" | "halted", "reason"?: "..."}`, nothing else. */
export const tradingStateCommandSchema = z.strictObject({
  state: z.enum(TRADING_STATES),
  reason: z.string().max(MAX_REASON_CHARS).optional(),
});
export type TradingStateCommand = z.infer<typeof tradingStateCommandSchema>;

export const COMMAND_EXAMPLE = `send {"state": "${TRADING_STATES.join('" | "')}", "reason": "<optional text>"}`;

export type ParsedCommand = { ok: true; state: TradingState; reason: string | undefined } | { ok: false; message: string };

/** Why a body that is JSON failed the schema, the most basic problem first. */
function failureOf(value: unknown, issues: readonly z.core.$ZodIssue[]): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `expected a JSON object: ${COMMAND_EXAMPLE}`;
  const unknown = issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys : []));
  if (unknown.length > 0) return `unknown field ${unknown.map((k) => JSON.stringify(k)).join(', ')}: ${COMMAND_EXAMPLE}`;
  if (issues.some((issue) => issue.path[0] === 'state')) {
    const state = (value as Record<string, unknown>)['state'];
    const got = state === undefined ? 'no state' : `state ${JSON.stringify(state)}`;
    return `${got}: the state must be one of ${TRADING_STATES.join(', ')}`;
  }
  return `reason must be a string of at most ${MAX_REASON_CHARS} characters`;
}

/** Validates a command body; every failure says what to send instead. */
export function parseCommand(text: string): ParsedCommand {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: `the body is not JSON: ${COMMAND_EXAMPLE}` };
  }
  const parsed = tradingStateCommandSchema.safeParse(value);
  if (!parsed.success) return { ok: false, message: failureOf(value, parsed.error.issues) };
  return { ok: true, state: parsed.data.state, reason: parsed.data.reason };
}

/** The answer to an applied command. */
export interface CommandAnswer {
  readonly requested: TradingState;
  readonly previous: TradingState;
  readonly state: TradingState;
  readonly cause: TradingStateCause;
  readonly reason: string;
  /** The strategy whose own state it set (`?strategy=<id>`); absent: the bot's. */
  readonly strategy?: string;
}

export interface ApplyCommandOptions {
  readonly target: ControlTarget;
  readonly command: Extract<ParsedCommand, { ok: true }>;
  /** `HTTP control` or `console`: in the state's reason (`operator (console): ...`). */
  readonly via: 'HTTP control' | 'console';
  readonly strategy: string | undefined;
  readonly log: Logger | undefined;
}

/** Sets the state as an operator command and logs it; the answer says what it became. */
export function applyCommand(options: ApplyCommandOptions): CommandAnswer {
  const { target, command, strategy, log } = options;
  const previous = target.state;
  const note = command.reason === undefined || command.reason === '' ? '' : `: ${command.reason}`;
  target.setState(command.state, `operator (${options.via})${note}`);
  const named = strategy === undefined ? {} : { strategy };
  const who = options.via === 'console' ? 'operator console' : 'operator control';
  const whose = strategy === undefined ? 'trading state' : `strategy ${strategy}'s trading state`;
  log?.warn(
    { requested: command.state, from: previous, to: target.state, ...named, ...(options.via === 'console' ? { source: 'console' } : {}) },
    `${who}: ${command.state} requested; ${whose} now ${target.state}`,
  );
  return { requested: command.state, previous, state: target.state, cause: target.cause, reason: target.reason, ...named };
}
