import type { SdkCase } from '../../support/sdk-case.ts';

/**
 * TokenStorage through the original SDK. These cases share one account's tokens and run in the
 * order given: each starts from what the ones before it left (a token stored, then read, marked
 * invalid, locked, listed and deleted).
 */
const TOKEN = 'sdk-case-token';
const VALUE = 'sdk-case-value-1';
const family = 'TokenStorage';

export const cases: SdkCase[] = [
  { family, choreo: 'StoreToken', name: 'stores a token', inputs: { Name: TOKEN, Value: VALUE, Expires: '0' }, expect: { Updated: 'true' } },
  {
    family,
    choreo: 'RetrieveToken',
    name: 'reads it back, valid and unlocked',
    inputs: { Name: TOKEN },
    expect: { Token: VALUE, Locked: 'false', Valid: 'true' },
  },
  { family, choreo: 'IsValid', name: 'a stored token is valid', inputs: { Name: TOKEN }, expect: { Valid: 'true' } },
  { family, choreo: 'SetValid', name: 'marks it invalid', inputs: { Name: TOKEN, Valid: 'false' }, expect: { Updated: 'true' } },
  { family, choreo: 'IsValid', name: 'it is then invalid', inputs: { Name: TOKEN }, expect: { Valid: 'false' } },
  { family, choreo: 'LockToken', name: 'the first lock gets the token', inputs: { Name: TOKEN }, expect: { Token: VALUE } },
  { family, choreo: 'LockToken', name: 'a second lock gets nothing', inputs: { Name: TOKEN }, expect: { Token: '' } },
  { family, choreo: 'IsLocked', name: 'it is locked', inputs: { Name: TOKEN }, expect: { Locked: 'true' } },
  {
    family,
    choreo: 'GetTokenDetails',
    name: 'lists the tokens that exist of those named',
    inputs: { Names: JSON.stringify([TOKEN, 'sdk-case-never-stored']) },
    expect: { Tokens: JSON.stringify([{ name: TOKEN, value: VALUE, valid: false, locked: true }]) },
  },
  { family, choreo: 'StoreToken', name: 'storing it again unlocks it', inputs: { Name: TOKEN, Value: 'sdk-case-value-2' }, expect: { Updated: 'true' } },
  {
    family,
    choreo: 'RetrieveToken',
    name: 'retrieving with LockToken takes the lock',
    inputs: { Name: TOKEN, LockToken: 'true' },
    expect: { Token: 'sdk-case-value-2', Locked: 'true', Valid: 'true' },
  },
  { family, choreo: 'DeleteToken', name: 'deletes it', inputs: { Name: TOKEN }, expect: { Deleted: 'true' } },
  { family, choreo: 'DeleteToken', name: 'a second delete finds nothing', inputs: { Name: TOKEN }, expect: { Deleted: 'false' } },
  { family, choreo: 'RetrieveToken', name: 'a deleted token reads as empty', inputs: { Name: TOKEN }, expect: { Token: '', Locked: 'false', Valid: 'false' } },
  {
    family,
    choreo: 'StoreToken',
    name: 'a token with a lifetime',
    inputs: { Name: 'sdk-case-expiring', Value: 'short-lived', Expires: '3600' },
    expect: { Updated: 'true' },
  },
  {
    family,
    choreo: 'SetValid',
    name: 'refuses a validity that is not true or false',
    inputs: { Name: TOKEN, Valid: 'maybe' },
    error: /expected true or false/,
  },
  {
    family,
    choreo: 'GetTokenDetails',
    name: 'refuses Names that are not a JSON array',
    inputs: { Names: TOKEN },
    error: /JSON array of token names/,
  },
];
