import { describe, expect, it } from 'vitest';
import { loadWorkerConfig } from './config.ts';
import { resolveHostAddress } from './host-address.ts';

describe('worker configuration', () => {
  it('has working defaults', () => {
    expect(loadWorkerConfig({})).toMatchObject({
      WORKER_CONCURRENCY: 8,
      WORKER_SHUTDOWN_GRACE_SECONDS: 45,
      HTTP_ALLOW_PRIVATE_NETWORKS: false,
      REDIS_PREFIX: '{ces}',
    });
  });

  it("keeps a schedule's lease and how far ahead it is claimed within the 15 s a dead worker's tick may wait", () => {
    expect(loadWorkerConfig({ SCHEDULE_LEASE_MS: '10000', SCHEDULE_LOOKAHEAD_MS: '5000' })).toMatchObject({
      SCHEDULE_LEASE_MS: 10_000,
      SCHEDULE_LOOKAHEAD_MS: 5_000,
    });
    expect(() => loadWorkerConfig({ SCHEDULE_LEASE_MS: '12000', SCHEDULE_LOOKAHEAD_MS: '4000' })).toThrow(/SCHEDULE_LOOKAHEAD_MS/);
  });

  it('names a bad concurrency', () => {
    expect(() => loadWorkerConfig({ WORKER_CONCURRENCY: '0' })).toThrow(/WORKER_CONCURRENCY/);
  });

  it('takes a limit per account, none by default, and names a bad one', () => {
    expect(loadWorkerConfig({}).MAX_EXECUTING_PER_ACCOUNT).toBe(0);
    expect(loadWorkerConfig({ MAX_EXECUTING_PER_ACCOUNT: '6' }).MAX_EXECUTING_PER_ACCOUNT).toBe(6);
    expect(() => loadWorkerConfig({ MAX_EXECUTING_PER_ACCOUNT: '-1' })).toThrow(/MAX_EXECUTING_PER_ACCOUNT/);
    expect(() => loadWorkerConfig({ MAX_EXECUTING_PER_ACCOUNT: 'half' })).toThrow(/MAX_EXECUTING_PER_ACCOUNT/);
  });
});

describe('host address', () => {
  it('prefers WORKER_HOST', () => {
    expect(resolveHostAddress('worker-7.internal')).toBe('worker-7.internal');
  });

  it('otherwise finds an address or the host name', () => {
    expect(resolveHostAddress(undefined)).not.toBe('');
  });
});
