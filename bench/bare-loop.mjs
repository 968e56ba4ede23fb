// The bare loop a whole backtest process is compared with (bench "backtest (one-off process)"): a Node process
// that reads the history file with readline and JSON.parses every line, nothing else. Usage:
// node bench/bare-loop.mjs <file>; prints the line count.
import process from 'node:process';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: node bench/bare-loop.mjs <file>');
let lines = 0;
let check = 0;
for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
  const value = JSON.parse(line);
  check += typeof value.type === 'string' ? value.type.length : 0;
  lines++;
}
if (check === 0) throw new Error('nothing parsed');
process.stdout.write(`${lines}\n`);
