/**
 * The nesting check that runs before the YAML parser (src/config/yaml.ts `nestsTooDeeply`): a document nested
 * deep enough to exhaust the parser's stack is refused unparsed (the parser recursing to the stack's end could
 * abort the process, not only throw), while brackets in quoted scalars and comments, apostrophes in plain words
 * and every shipped config pass.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nestsTooDeeply, parseYaml } from '../../src/config/yaml.ts';
import type { ConfigProblem } from '../../src/config/errors.ts';

const CONFIG_DIR = fileURLToPath(new URL('../../config/', import.meta.url));

describe('nestsTooDeeply', () => {
  it('refuses flow collections nested past 200 levels, objects or lists', () => {
    expect(nestsTooDeeply(`a: ${'['.repeat(201)}${']'.repeat(201)}\n`)).toBe(true);
    expect(nestsTooDeeply(`a: ${'{"a":'.repeat(20_000)}{}${'}'.repeat(20_000)}\n`)).toBe(true);
    expect(nestsTooDeeply(`a: ${'['.repeat(200)}${']'.repeat(200)}\n`)).toBe(false);
  });

  it('refuses a line indented past 1000 columns (block nesting)', () => {
    expect(nestsTooDeeply(`a:\n${' '.repeat(1001)}b: 1\n`)).toBe(true);
    expect(nestsTooDeeply(`a:\n${' '.repeat(1000)}b: 1\n`)).toBe(false);
  });

  it('does not count brackets inside quoted scalars or comments, nor take an apostrophe in a word for a quote', () => {
    const many = '['.repeat(500);
    expect(nestsTooDeeply(`a: "${many}"\nb: '${many}'\n# ${many}\nc: 1 # ${many}\n`)).toBe(false);
    expect(nestsTooDeeply(`a: "say \\"${many}\\""\n`)).toBe(false);
    expect(nestsTooDeeply(`note: it's deep ${'['.repeat(201)}${']'.repeat(201)}\n`)).toBe(true);
  });

  it('passes every shipped config file', () => {
    const files = readdirSync(CONFIG_DIR).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(nestsTooDeeply(readFileSync(path.join(CONFIG_DIR, file), 'utf8')), file).toBe(false);
  });

  it('parseYaml reports the refusal as one problem, without parsing', () => {
    const problems: ConfigProblem[] = [];
    expect(parseYaml(`logging: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`, problems)).toBeUndefined();
    expect(problems).toEqual([{ path: '', message: expect.stringMatching(/nests too deeply/) as unknown as string }]);
  });
});
