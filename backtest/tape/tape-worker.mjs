// Tape worker entry: worker threads start without the TypeScript loader, so register tsx here, then run
// the TypeScript body (tape-worker.ts).
import { register } from 'tsx/esm/api';

register();
await import('./tape-worker.ts');
