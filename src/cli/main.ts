/**
 * The `tradebot` command: parses the command line with commander and dispatches to subcommands.
 */
import { Command } from 'commander';

const program = new Command('tradebot').description('Algorithmic trading on an event-contract exchange');
await program.parseAsync(process.argv);
