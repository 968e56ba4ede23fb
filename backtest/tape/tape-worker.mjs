// Tape worker entry when esbuild cannot bundle tape-worker.ts (worker-bundle.ts, the usual way): worker
// threads start without the TypeScript loader, so register tsx here, then run the TypeScript body.
import { register } from 'tsx/esm/api';

register();
await import('./tape-worker.ts');
