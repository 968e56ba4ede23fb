#!/usr/bin/env node
// Entry point of the `tradebot` command. An installed package runs its compiled JavaScript (dist/), with no
// TypeScript compiler; a clone of the repository (src/ present) runs the TypeScript sources through tsx.
import { existsSync } from 'node:fs';

const sources = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import('../dist/src/cli/main.js');
}
