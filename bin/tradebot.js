#!/usr/bin/env node
// Entry point of the `tradebot` command: registers the TypeScript loader (tsx) and hands over to the CLI.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
