/**
 * The tape worker's code as one plain JavaScript string: esbuild (tsx's own dependency) bundles
 * tape-worker.ts with what it imports (the full parser and the domain codecs too, initialised only when a line
 * needs them), once per process, on esbuild's service process (~30-50 ms) while the replay thread reads the
 * first lines itself. A worker started from the string (`new Worker(code, { eval: true })`) is up in
 * ~25-40 ms; one started through tape-worker.mjs (tsx's loader registered in the worker thread, every module
 * loaded through it) took ~0.15-0.25 s. Resolves undefined when esbuild cannot bundle here (not installed for
 * this platform, say) or has not bundled within BUNDLE_TIMEOUT_MS: the caller then starts tape-worker.mjs.
 */
import { fileURLToPath } from 'node:url';
import { packageModule } from '../../src/package/paths.ts';

const ENTRY = fileURLToPath(packageModule('backtest/tape/tape-worker.ts'));

/** A build that takes longer than this (esbuild's service process stuck) is given up for tsx's loader. */
export const BUNDLE_TIMEOUT_MS = 15_000;

let bundle: Promise<string | undefined> | undefined;

/**
 * tape-worker.ts (its compiled .js when compiled) bundled into one CommonJS script, with esbuild's warnings:
 * the build (tools/build.mjs) refuses a compiled tree whose worker bundles with any, since the script then
 * fails in its thread and backtests parse on the replay thread instead.
 */
export async function bundleTapeWorker(): Promise<{ readonly code: string | undefined; readonly warnings: readonly string[] }> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
  const warnings = result.warnings.map((w) => `${w.text} (${w.location?.file ?? ENTRY})`);
  return { code: result.outputFiles[0]?.text, warnings };
}

async function build(): Promise<string | undefined> {
  return (await bundleTapeWorker()).code;
}

/** The bundled tape worker (built on the first call, then the same string). */
export function tapeWorkerBundle(): Promise<string | undefined> {
  bundle ??= new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), BUNDLE_TIMEOUT_MS);
    timer.unref();
    void build()
      .catch(() => undefined)
      .then((code) => {
        clearTimeout(timer);
        resolve(code);
      });
  });
  return bundle;
}
