/**
 * `tradebot init [dir]`: scaffolds a strategy project (src/scaffold/init-project.ts): an example strategy
 * importing `tradebot/strategy`, its vitest test on `tradebot/testing`, params, configs for the embedded
 * exchange and for backtests, the sample tape, tsconfig.json and package.json scripts. Never overwrites a file.
 */
import type { Command } from 'commander';

export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description(
      'Scaffold a strategy project in dir (default: here): example strategy, test, params, configs, sample data; never overwrites a file',
    )
    .argument('[dir]', 'the project folder (created when missing)', '.')
    .action(async (dir: string) => {
      const { initProject } = await import('../../scaffold/init-project.ts');
      const result = initProject(dir);
      const lines = [
        `tradebot init: ${result.dir === '.' ? 'this folder' : result.dir}`,
        ...result.written.map((file) => `  wrote    ${file}`),
        ...result.kept.map((file) => `  kept     ${file} (it exists; not overwritten)`),
        ...result.packageJsonChanges.map((change) => `  package.json  ${change}`),
        '',
        'next:',
        ...(result.dir === '.' ? [] : [`  cd ${result.dir}`]),
        '  npm install          # vitest, typescript and the tradebot dependency',
        "  npm test             # the example strategy's tests",
        '  npm run backtest     # replay data/sample.jsonl; report in out/backtest/',
        '  npm start            # trade it against the embedded exchange',
        '',
      ];
      process.stdout.write(lines.join('\n'));
    });
}
