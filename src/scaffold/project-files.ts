/**
 * What `tradebot init` writes: the files of a strategy project, each with its path and text. Most are copied
 * from templates/init/ (the example strategy, its test, params, tsconfig.json, README.md, .gitignore); the two
 * configs are tradebot's own config/sim.yaml and config/backtest.yaml with `bot` pointed at the example (their
 * comments kept), and data/sample.jsonl is tradebot's sample tape. package.json is not here: it is merged
 * into what the folder has (package-json.ts).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, parseDocument } from 'yaml';
import { packageFile } from '../package/paths.ts';

export interface ProjectFile {
  /** Path inside the project, with forward slashes (e.g. `strategies/example.ts`). */
  readonly path: string;
  readonly text: string;
}

const TEMPLATES = packageFile('templates', 'init');
/** Template files whose name npm would not ship as is. */
const RENAMED: Readonly<Record<string, string>> = { gitignore: '.gitignore' };

function templateFiles(dir = TEMPLATES, prefix = ''): ProjectFile[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      const relative = `${prefix}${RENAMED[name] ?? name}`;
      return statSync(full).isDirectory() ? templateFiles(full, `${relative}/`) : [{ path: relative, text: readFileSync(full, 'utf8') }];
    });
}

/** The example's params (templates/init/params/example.yaml), for the configs' `bot.params`. */
function exampleParams(files: readonly ProjectFile[]): unknown {
  const params = files.find((file) => file.path === 'params/example.yaml');
  if (params === undefined) throw new Error('templates/init/params/example.yaml is missing from the tradebot package');
  return parseDocument(params.text).toJS();
}

/** tradebot's config `name` with `bot.strategy` set to the example and `bot.params` to its params. */
function configFor(name: string, params: unknown): ProjectFile {
  const doc = parseDocument(readFileSync(packageFile('config', name), 'utf8'));
  doc.setIn(['bot', 'strategy'], '../strategies/example.ts');
  doc.setIn(['bot', 'params'], doc.createNode(params));
  const bot = isMap(doc.contents) ? doc.contents.items.find((pair) => isScalar(pair.key) && pair.key.value === 'bot') : undefined;
  if (bot !== undefined && isScalar(bot.key))
    bot.key.commentBefore = ' The bot: strategies/example.ts (a path relative to this file) with the params of params/example.yaml.';
  // the comment over tradebot's own demo bot no longer describes this one
  const text = doc.toString({ lineWidth: 0 }).replace(/^[ \t]*# The demo bot \(`npm start`\).*\n/m, '');
  return { path: `config/${name}`, text };
}

/** Every file of a new strategy project but package.json. */
export function projectFiles(): ProjectFile[] {
  const templates = templateFiles();
  const params = exampleParams(templates);
  return [
    ...templates,
    configFor('sim.yaml', params),
    configFor('backtest.yaml', params),
    { path: 'data/sample.jsonl', text: readFileSync(packageFile('backtest', 'data', 'sample.jsonl'), 'utf8') },
  ];
}
