import type { TestProject } from 'vitest/node';
import { findTestRedis } from './find-redis.ts';

import type {} from './provided-context.ts';

/** One Redis for the whole run; each test file isolates itself with its own key prefix. */
export default async function setup(project: TestProject) {
  const redis = await findTestRedis(process.env);
  project.provide('redisUrl', redis.url);
  project.provide('redisDataDir', redis.dataDir ?? '');
  return async () => {
    await redis.stop();
  };
}
