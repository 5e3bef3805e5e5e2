export {
  AccountError,
  ACCOUNT_NAME,
  createAccountStore,
  CREDENTIAL_NAME,
  CREDENTIAL_RIGHTS,
  type CredentialRight,
  type AccountStore,
  type CredentialKind,
  type CredentialSummary,
  type StoredCredential,
} from './account-store.ts';
export { createCachedAccountStore, type CachedAccountStore } from './credential-cache.ts';
export { createAuthenticator, type Authenticator, type Principal } from './authenticator.ts';
export { applyAccountsFile, AccountsFileError, readAccountsFile, type AccountsFile } from './accounts-file.ts';
export { isValidChoreoPattern, mayAccessChoreo, matchesChoreoPattern } from './choreo-patterns.ts';
export { generateKey } from './secrets.ts';
