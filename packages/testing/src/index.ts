export { findTestRedis, NO_REDIS_MESSAGE, type TestRedis } from './find-redis.ts';
export { deleteKeysWithPrefix, isolatedPrefix } from './isolation.ts';
export { must } from './must.ts';
export { waitFor } from './wait-for.ts';
export type {} from './provided-context.ts';
export { newExecutionFixture } from './execution-fixture.ts';
export { testAccounts, type TestCredentials } from './test-accounts.ts';
export { createResponseConformance, type OpenApiDocumentLike, type ReceivedAnswer, type ResponseConformance } from './response-conformance.ts';
