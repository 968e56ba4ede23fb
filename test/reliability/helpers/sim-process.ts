/**
 * `tradebot sim` as a child process for reliability tests: a config on fixed ports the test picked free
 * (so a restarted process serves the URLs the bot already has), started and awaited on its `sim.ready`
 * line, killed with any signal and awaited on its exit. `watchFile` wakes a Subject on every change in a
 * file's folder (fs.watch), so tests wait on the simulator's state writes instead of polling.
 */
import { watch } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Subject, type Observable } from 'rxjs';
import { tradebot, type Exit, type Tradebot } from '../../engine/journal/helpers/processes.ts';

export interface SimPorts {
  api: number;
  auth: number;
  gateway: number;
  grpc: number;
}

/** Four ports free on 127.0.0.1 right now (each bound to port 0, read, released). */
export async function freePorts(): Promise<SimPorts> {
  const servers = await Promise.all(
    [0, 1, 2, 3].map(
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const [api, auth, gateway, grpc] = servers.map((s) => (s.address() as net.AddressInfo).port) as [number, number, number, number];
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return { api, auth, gateway, grpc };
}

export interface SimReadyLine {
  api: string;
  auth: string;
  gateway: string;
  grpc: string;
}

export interface SimProcess {
  readonly ready: SimReadyLine;
  readonly process: Tradebot;
  /** Sends `signal` and resolves with the exit. */
  stop(signal: NodeJS.Signals): Promise<Exit>;
}

/** `tradebot sim --config <file>`, resolved once it printed `sim.ready`. */
export async function startSimProcess(configFile: string): Promise<SimProcess> {
  const child = tradebot(['sim', '--config', configFile]);
  const ready = JSON.parse(await child.line('stdout', (l) => l.includes('"sim.ready"'), 'sim.ready')) as SimReadyLine;
  return {
    ready,
    process: child,
    stop: async (signal) => {
      if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill(signal);
      return child.exit;
    },
  };
}

/** Emits on every change in `file`'s folder until the returned `close()`. */
export function watchFile(file: string): { changes$: Observable<void>; close(): void } {
  const changes = new Subject<void>();
  const watcher = watch(path.dirname(file), () => changes.next());
  return {
    changes$: changes.asObservable(),
    close: () => {
      watcher.close();
      changes.complete();
    },
  };
}
