/**
 * The body of `tradebot config check <file>` (declared in ../commands/config.ts): the config's schema, the
 * run plan (venue and stream transports against the exchange section), then the strategy it names, loaded
 * as `tradebot run` loads it, and its `bot.params` validated by the plugin's schema, with problems named by
 * the file and `bot.params.<key>`. A backtest config (one with a `backtest` section) is checked with the
 * backtest schema.
 */
import { loadBacktestConfig } from '../../../backtest/config.ts';
import { loadConfig } from '../../config/index.ts';
import { parseYaml } from '../../config/yaml.ts';
import { assertRunPlan } from '../../bot/live/run-plan.ts';
import { loadStrategy, validateParams } from '../../engine/strategy/loader.ts';
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
  const bot = isBacktestConfig(file) ? loadBacktestConfig(file).bot : assertedBot(file);
  const strategy = await loadStrategy(bot.strategy);
  validateParams(strategy, bot.params, { file, path: 'bot.params' });
  process.stdout.write(`${file}: ok (strategy ${strategy.name})\n`);
}

function assertedBot(file: string) {
  const config = loadConfig(file);
  assertRunPlan(config, file);
  return config.bot;
}
