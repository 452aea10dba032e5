// Entry of every worker thread of the api. The api runs its TypeScript through tsx, whose loader
// does not reach worker threads: the thread registers it itself, then loads its task, the module
// whose URL `iniciarHilo` put in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.modulo);
