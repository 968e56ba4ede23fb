/**
 * The soak's exchange: `tradebot sim` in a child process, so the bot's memory figures are its own. The
 * child's config is the soak config's YAML with the soak's settings applied (market activity on at the
 * soak's interval, the periodic stream drops, the soak's small memory caps, the bot's family A API client for reference data, no state
 * file: a soak starts from a fresh exchange and must not rewrite an operator's state), written to a temp
 * folder; file paths the config names are made absolute so they still resolve from there.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseDocument } from 'yaml';
import type { SimConfig } from '../../src/sim/config.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'tradebot.js');

export interface SimReady {
  api: string;
  auth: string;
  gateway: string;
  grpc: string;
}

export interface SimChildSettings {
  /** The soak's config file (with a sim section). */
  configFile: string;
  /** The same config as loaded (paths resolved). */
  sim: SimConfig;
  activityIntervalMs: number;
  /** 0: never. */
  dropEverySeconds: number;
  /** The exchange's memory caps (sim.maxOrderHistory, sim.maxTrades). */
  caps: { maxOrderHistory: number; maxTrades: number };
  client: { clientId: string; publicKeyFile: string; participant: string };
  /** Where to write the child's config. */
  dir: string;
}

/** Writes the child's config; returns its path. */
export function writeSimConfig(settings: SimChildSettings): string {
  const doc = parseDocument(readFileSync(settings.configFile, 'utf8'));
  doc.delete('exchange');
  doc.delete('bot');
  doc.setIn(['sim', 'activity', 'enabled'], true);
  doc.setIn(['sim', 'activity', 'intervalMs'], settings.activityIntervalMs);
  if (settings.dropEverySeconds > 0) doc.setIn(['sim', 'faults', 'dropStreamsEverySeconds'], settings.dropEverySeconds);
  doc.deleteIn(['sim', 'stateFile']);
  doc.setIn(['sim', 'maxOrderHistory'], settings.caps.maxOrderHistory);
  doc.setIn(['sim', 'maxTrades'], settings.caps.maxTrades);
  const sim = settings.sim;
  if (sim.kyc.extraCaFile !== undefined) doc.setIn(['sim', 'kyc', 'extraCaFile'], sim.kyc.extraCaFile);
  sim.clients.forEach((c, i) => doc.setIn(['sim', 'clients', i, 'publicKeyFile'], c.publicKeyFile));
  doc.setIn(['sim', 'clients', sim.clients.length], doc.createNode({ ...settings.client, scopes: ['read:instruments'] }));
  const file = path.join(settings.dir, 'soak-sim.yaml');
  writeFileSync(file, doc.toString());
  return file;
}

export interface SimChild {
  readonly ready: SimReady;
  readonly pid: number;
  /** The child's resident set, MB (Linux /proc); undefined elsewhere or once it exited. */
  rssMb(): number | undefined;
  /** Resolves when the child exits, with a description. */
  readonly exited: Promise<string>;
  /** The last lines it wrote to stderr. */
  stderrTail(): string[];
  /** SIGTERM, then the exit. */
  stop(): Promise<string>;
}

export async function startSimChild(configFile: string): Promise<SimChild> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [BIN, 'sim', '--config', configFile], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const tail: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => {
    tail.push(line);
    if (tail.length > 20) tail.shift();
  });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal === null ? `exit code ${code}` : `signal ${signal}`)),
  );
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise<SimReady>((resolve, reject) => {
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as SimReady);
      } catch {
        reject(new Error(`tradebot sim printed ${JSON.stringify(line)} instead of its sim.ready line`));
      }
    });
    void exited.then((how) => reject(new Error(`tradebot sim ended (${how}) before sim.ready:\n${tail.join('\n')}`)));
  });
  const pid = child.pid ?? 0;
  return {
    ready,
    pid,
    exited,
    stderrTail: () => [...tail],
    rssMb: () => {
      const status = `/proc/${pid}/status`;
      if (!existsSync(status)) return undefined;
      const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(status, 'utf8'));
      return match === null ? undefined : Math.round(Number(match[1]) / 1024);
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
