/**
 * The body of `tradebot config check <file>` (declared in ../commands/config.ts): the config's schema, the
 * run plan (venue and stream transports against the exchange section), then the strategy it names, loaded
 * as `tradebot run` loads it, and its `bot.params` validated by the plugin's schema, with problems named by
 * the file and `bot.params.<key>`; with `bot.strategies`, every strategy and its params, all problems at once
 * (`bot.strategies[1].params.qty`), and its risk keys narrower than the bot's (src/bot/strategy-specs.ts). A
 * backtest config (one with a `backtest` section) is checked with the backtest schema.
 */
import { loadBacktestConfig } from '../../../backtest/config.ts';
import { loadConfig } from '../../config/index.ts';
import { parseYaml } from '../../config/yaml.ts';
import { assertRunPlan } from '../../bot/live/run-plan.ts';
import { loadStrategySpecs } from '../../bot/strategy-specs.ts';
import { readFileSync } from 'node:fs';

/** True when the file has a top-level `backtest` section (a backtest config, not a bot config). */
function isBacktestConfig(file: string): boolean {
  try {
    const tree = parseYaml(readFileSync(file, 'utf8'), []);
    return tree !== null && typeof tree === 'object' && !Array.isArray(tree) && 'backtest' in tree;
  } catch {
    return false;
  }
}

export async function configCheckCommand(file: string): Promise<void> {
  const config = isBacktestConfig(file) ? loadBacktestConfig(file) : assertedConfig(file);
  const specs = await loadStrategySpecs(config, file);
  const names = specs.map((s) => (s.id === s.definition.name ? s.id : `${s.id}: ${s.definition.name}`));
  process.stdout.write(`${file}: ok (${specs.length === 1 ? 'strategy' : 'strategies'} ${names.join(', ')})\n`);
}

function assertedConfig(file: string) {
  const config = loadConfig(file);
  assertRunPlan(config, file);
  return config;
}
