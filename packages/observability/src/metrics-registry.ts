import { collectDefaultMetrics, Registry } from 'prom-client';

export type MetricsRegistry = Registry;

/**
 * One Prometheus registry per process (never prom-client's global one), so that an API and a
 * worker started in one test process, or two registries in one test file, never collide.
 * Every series carries `service` (api, worker); Prometheus adds the instance itself.
 */
export function createMetricsRegistry(options: { service: string; processMetrics?: boolean }): MetricsRegistry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  return registry;
}
