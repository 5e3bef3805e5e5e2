import type { ChoreoCase } from './choreo-case.ts';

/**
 * TokenStorage through the original SDK. These cases share one account's tokens and run in the
 * order given: each starts from what the ones before it left (a token stored, then read, marked
 * invalid, locked, listed and deleted).
 */
const TOKEN = 'sdk-case-token';
const VALUE = 'sdk-case-value-1';
/** Only a running service keeps an account's state; the engine alone has none. */
const sdkOnly = { family: 'TokenStorage', only: 'sdk' } as const;

export const cases: ChoreoCase[] = [
  { ...sdkOnly, choreo: 'StoreToken', name: 'stores a token', inputs: { Name: TOKEN, Value: VALUE, Expires: '0' }, outputs: { Updated: 'true' } },
  {
    ...sdkOnly,
    choreo: 'RetrieveToken',
    name: 'reads it back, valid and unlocked',
    inputs: { Name: TOKEN },
    outputs: { Token: VALUE, Locked: 'false', Valid: 'true' },
  },
  { ...sdkOnly, choreo: 'IsValid', name: 'a stored token is valid', inputs: { Name: TOKEN }, outputs: { Valid: 'true' } },
  { ...sdkOnly, choreo: 'SetValid', name: 'marks it invalid', inputs: { Name: TOKEN, Valid: 'false' }, outputs: { Updated: 'true' } },
  { ...sdkOnly, choreo: 'IsValid', name: 'it is then invalid', inputs: { Name: TOKEN }, outputs: { Valid: 'false' } },
  { ...sdkOnly, choreo: 'LockToken', name: 'the first lock gets the token', inputs: { Name: TOKEN }, outputs: { Token: VALUE } },
  { ...sdkOnly, choreo: 'LockToken', name: 'a second lock gets nothing', inputs: { Name: TOKEN }, outputs: { Token: '' } },
  { ...sdkOnly, choreo: 'IsLocked', name: 'it is locked', inputs: { Name: TOKEN }, outputs: { Locked: 'true' } },
  {
    ...sdkOnly,
    choreo: 'GetTokenDetails',
    name: 'lists the tokens that exist of those named',
    inputs: { Names: JSON.stringify([TOKEN, 'sdk-case-never-stored']) },
    outputs: { Tokens: JSON.stringify([{ name: TOKEN, value: VALUE, valid: false, locked: true }]) },
  },
  { ...sdkOnly, choreo: 'StoreToken', name: 'storing it again unlocks it', inputs: { Name: TOKEN, Value: 'sdk-case-value-2' }, outputs: { Updated: 'true' } },
  {
    ...sdkOnly,
    choreo: 'RetrieveToken',
    name: 'retrieving with LockToken takes the lock',
    inputs: { Name: TOKEN, LockToken: 'true' },
    outputs: { Token: 'sdk-case-value-2', Locked: 'true', Valid: 'true' },
  },
  { ...sdkOnly, choreo: 'DeleteToken', name: 'deletes it', inputs: { Name: TOKEN }, outputs: { Deleted: 'true' } },
  { ...sdkOnly, choreo: 'DeleteToken', name: 'a second delete finds nothing', inputs: { Name: TOKEN }, outputs: { Deleted: 'false' } },
  {
    ...sdkOnly,
    choreo: 'RetrieveToken',
    name: 'a deleted token reads as empty',
    inputs: { Name: TOKEN },
    outputs: { Token: '', Locked: 'false', Valid: 'false' },
  },
  {
    ...sdkOnly,
    choreo: 'StoreToken',
    name: 'a token with a lifetime',
    inputs: { Name: 'sdk-case-expiring', Value: 'short-lived', Expires: '3600' },
    outputs: { Updated: 'true' },
  },
  {
    ...sdkOnly,
    choreo: 'SetValid',
    name: 'refuses a validity that is not true or false',
    inputs: { Name: TOKEN, Valid: 'maybe' },
    error: /expected true or false/,
  },
  {
    ...sdkOnly,
    choreo: 'GetTokenDetails',
    name: 'refuses Names that are not a JSON array',
    inputs: { Names: TOKEN },
    error: /JSON array of token names/,
  },
];
