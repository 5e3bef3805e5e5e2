import { randomBytes } from 'node:crypto';
import type { NewExecution } from '@ces/store';

/**
 * A new execution as the API would record it, for tests that drive the store directly: a random
 * id, the `acme` account, no inputs, a deadline a minute away. Anything can be overridden.
 */
export function newExecutionFixture(overrides: Partial<NewExecution> = {}): NewExecution {
  const now = Date.now();
  return {
    id: randomBytes(16).toString('hex'),
    account: 'acme',
    choreo: '/Test/Quick',
    starttime: now,
    sourceId: '',
    definitionDigest: 'digest',
    inputs: {},
    deadline: now + 60_000,
    storeResults: false,
    outputFilters: [],
    ...overrides,
  };
}
