/**
 * Config loading, in one place: `loadConfig(file)` reads a YAML file from `config/` and returns the typed,
 * validated config or throws a ConfigError listing every problem with its path.
 * Modules: yaml (exact-number YAML), env (`${VAR}` references), fields (schema building blocks),
 * issues (readable messages), schema (the root schema), loader, errors.
 */
import { loadConfigFile, parseConfigText, type LoadOptions } from './loader.ts';
import { configSchema, type TradebotConfig } from './schema.ts';

export { ConfigError, type ConfigProblem } from './errors.ts';
export { loadConfigFile, parseConfigText, type LoadOptions, type SchemaFactory } from './loader.ts';
export * as fields from './fields.ts';
export type { ConfigContext } from './fields.ts';
export { configSchema, type TradebotConfig } from './schema.ts';

export function loadConfig(file: string, options: LoadOptions = {}): TradebotConfig {
  return loadConfigFile(file, configSchema, options);
}

export function parseConfig(text: string, options: LoadOptions & { file?: string } = {}): TradebotConfig {
  return parseConfigText(text, configSchema, options);
}
