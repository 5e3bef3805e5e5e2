import { hostname, networkInterfaces } from 'node:os';

/**
 * The address a worker reports as the host of its executions: WORKER_HOST when set, otherwise
 * the first non-internal IPv4 address of the machine, otherwise its host name.
 */
export function resolveHostAddress(configured: string | undefined): string {
  if (configured) return configured;
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal) return address.address;
    }
  }
  return hostname();
}
