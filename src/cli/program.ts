/**
 * Builds the `tradebot` commander program from the subcommand modules in `commands/`. Kept apart from
 * `main.ts` so tests can run commands in-process and read their output.
 */
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { packageFile } from '../package/paths.ts';
import { registerConfigCommand } from './commands/config.ts';
import { registerSimCommand } from './commands/sim.ts';
import { registerRunCommand } from './commands/run.ts';
import { registerKeygenCommand } from './commands/keygen.ts';
import { registerTokenCommand } from './commands/token.ts';
import { registerKycCommand } from './commands/kyc.ts';
import { registerSweepCommand } from './commands/sweep.ts';
import { registerWorkerCommand } from './commands/worker.ts';
import { registerHistoryCommand } from './commands/history.ts';
import { registerBacktestCommand } from './commands/backtest.ts';
import { registerControlCommand } from './commands/control.ts';
import { registerInitCommand } from './commands/init.ts';
import { registerExchangeCommand } from './commands/exchange.ts';
import { registerReportCommand } from './commands/report.ts';

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

export function buildProgram(): Command {
  const program = new Command('tradebot')
    .description(
      'Algorithmic trading on an event-contract exchange: strategies, risk, execution, backtests, and an embedded exchange simulator.',
    )
    .version(packageVersion())
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: true });
  registerConfigCommand(program);
  registerSimCommand(program);
  registerRunCommand(program);
  registerKeygenCommand(program);
  registerTokenCommand(program);
  registerKycCommand(program);
  registerSweepCommand(program);
  registerWorkerCommand(program);
  registerHistoryCommand(program);
  registerBacktestCommand(program);
  registerControlCommand(program);
  registerExchangeCommand(program);
  registerInitCommand(program);
  registerReportCommand(program);
  return program;
}
