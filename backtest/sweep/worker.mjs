// Piscina worker entry: worker threads start without the TypeScript loader, so register tsx here, then
// hand over to the TypeScript task (worker.ts).
import { register } from 'tsx/esm/api';

register();
const { default: runTask } = await import('./worker.ts');

export default runTask;
