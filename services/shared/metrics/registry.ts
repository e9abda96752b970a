// A process's prom-client registry: prom-client's default metrics (CPU, memory, event-loop lag, GC) and every
// series labelled with the process's worker name, so that one scrape can hold them all side by side.
import { collectDefaultMetrics, Registry } from 'prom-client';

export function createProcessRegistry(worker: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ worker });
  collectDefaultMetrics({ register: registry });
  return registry;
}
