/**
 * Whether a `bot.strategy` value (or a `--strategy` argument) names a plugin file rather than a strategy of
 * `strategies/`: it has a path separator or a script extension. Shared by the loader and the bot config
 * (which resolves such a path against the config file's folder).
 */
export function looksLikeStrategyPath(value: string): boolean {
  return value.includes('/') || value.includes('\\') || /\.(ts|mts|cts|js|mjs|cjs)$/.test(value);
}
