/**
 * Process entry of the `tradebot` command (`npx tradebot ...`, `npm start`): runs the CLI and exits
 * with its code once output is flushed.
 */
import { runCli } from './run-cli.ts';

process.exitCode = await runCli(process.argv.slice(2));
