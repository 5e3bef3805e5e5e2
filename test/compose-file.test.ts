import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { must } from '@ces/testing';

// No Docker engine runs here, so the compose file is checked as data.
// Compose honours YAML merge keys (`<<: *common-env`), so the parser must too.
const compose = parse(readFileSync(new URL('../docker-compose.yml', import.meta.url), 'utf8'), { merge: true });
const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');

describe('docker-compose.yml', () => {
  it('has redis, api and worker services, and the same on a Redis Cluster in the profile `cluster`', () => {
    const inProfile = (name: string) => (compose.services[name].profiles ?? []).includes('cluster');
    const names = Object.keys(compose.services);
    expect(names.filter((name) => !inProfile(name)).sort()).toEqual(['api', 'redis', 'worker']);
    expect(names.filter(inProfile).sort()).toEqual([
      'api-on-cluster',
      'redis-cluster-init',
      'redis-node-1',
      'redis-node-2',
      'redis-node-3',
      'redis-node-4',
      'redis-node-5',
      'redis-node-6',
      'worker-on-cluster',
    ]);
  });

  it('joins six cluster-enabled nodes, three primaries with a replica each, and points the services at them', () => {
    for (let n = 1; n <= 6; n++) expect(compose.services[`redis-node-${n}`].command.join(' ')).toMatch(/--cluster-enabled yes/);
    expect(compose.services['redis-cluster-init'].command.join(' ')).toMatch(/--cluster-replicas 1/);
    for (const name of ['api-on-cluster', 'worker-on-cluster']) {
      const environment = compose.services[name].environment;
      expect(environment.REDIS_CLUSTER_NODES).toBe('redis-node-1:6379,redis-node-2:6379,redis-node-3:6379');
      expect(environment.REDIS_REPLICA_ACKS).toBe('1');
      expect(environment.REDIS_PREFIX).toBe('{ces}');
      expect(compose.services[name].depends_on['redis-cluster-init'].condition).toBe('service_completed_successfully');
    }
  });

  it('runs Redis with AOF and noeviction', () => {
    const command = compose.services.redis.command.join(' ');
    expect(command).toMatch(/--appendonly yes/);
    expect(command).toMatch(/--maxmemory-policy noeviction/);
  });

  it('builds one image for api and worker and scales both with replicas', () => {
    expect(compose.services.api.image).toBe(compose.services.worker.image);
    expect(compose.services.api.deploy.replicas).toBeGreaterThan(1);
    expect(compose.services.worker.deploy.replicas).toBeGreaterThan(1);
    expect(compose.services.api.command).toEqual(['node', 'apps/api/src/main.ts']);
    expect(compose.services.worker.command).toEqual(['node', 'apps/worker/src/main.ts']);
  });

  it('publishes HTTPS and points both at the same Redis and prefix', () => {
    expect(compose.services.api.ports.some((port: string) => port.endsWith(':8443'))).toBe(true);
    for (const name of ['api', 'worker']) {
      expect(compose.services[name].environment.REDIS_URL).toBe('redis://redis:6379');
      expect(compose.services[name].environment.REDIS_PREFIX).toBe('{ces}');
      // The API seals what the workers open: one key for both.
      expect(compose.services[name].environment.SECRETS_KEY).toBe(`\${SECRETS_KEY:-}`);
      // The API decides each run's public address (from the request when unset); a worker falls back to it.
      expect(compose.services[name].environment.PUBLIC_BASE_URL).toMatch(/^\$\{PUBLIC_BASE_URL:-\}$/);
    }
    expect(compose.services.api.environment.TLS_CERT_FILE).toBeTruthy();
    expect(compose.services.api.environment.TLS_KEY_FILE).toBeTruthy();
  });

  it('gives workers longer to stop than their own grace period', () => {
    const grace = Number(compose.services.worker.environment.WORKER_SHUTDOWN_GRACE_SECONDS);
    expect(Number.parseInt(compose.services.worker.stop_grace_period, 10)).toBeGreaterThan(grace);
  });

  it('uses Node 24 in the image', () => {
    expect(dockerfile).toMatch(/FROM node:24/);
  });

  it('copies every workspace manifest before npm ci, or the lock file does not match', () => {
    const root = new URL('../', import.meta.url);
    const { workspaces } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { workspaces: string[] };
    const folders = workspaces.flatMap((pattern) =>
      pattern.endsWith('/*')
        ? readdirSync(new URL(pattern.slice(0, -1), root), { withFileTypes: true })
            .filter((entry) => entry.isDirectory())
            .map((entry) => `${pattern.slice(0, -1)}${entry.name}`)
        : [pattern],
    );
    const beforeInstall = dockerfile.slice(0, dockerfile.indexOf('RUN npm ci'));
    const copied = [...beforeInstall.matchAll(/^COPY (\S+)/gm)].map((match) => must(match[1]));
    for (const folder of folders) {
      const covered = copied.some((source) => source === `${folder}/package.json` || `${folder}/`.startsWith(source.endsWith('/') ? source : `${source}/`));
      expect(covered, `${folder}/package.json is not copied before npm ci`).toBe(true);
    }
  });
});
