/**
 * Runs the CLI and maps failures to exit codes: a TradebotError prints its code and message (no stack
 * trace, no secrets) and exits 2 for config/validation problems, 1 otherwise. Unexpected errors print the
 * redacted stack, since they are bugs.
 */
import { CommanderError } from 'commander';
import { isTradebotError } from '../errors.ts';
import { redactString } from '../logging/redact.ts';
import { buildProgram } from './program.ts';

export async function runCli(argv: readonly string[]): Promise<number> {
  const program = buildProgram().exitOverride();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (isTradebotError(error)) {
      process.stderr.write(`tradebot: ${redactString(error.message)} [${error.code}]\n`);
      return error.kind === 'config' || error.kind === 'validation' ? 2 : 1;
    }
    process.stderr.write(
      'tradebot: unexpected error (a bug; please report it)\n' +
        `${redactString(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
    );
    return 1;
  }
}
