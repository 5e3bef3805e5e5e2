/** The credentials every test service knows; secrets are random for each call. */
export interface TestCredentials {
  /**
   * acme: a user with every Choreo, an application limited to Encoding (no rights), and one with
   * every Choreo and the right to write presets.
   */
  alice: { account: 'acme'; name: 'alice'; secret: string };
  encodingApp: { account: 'acme'; name: 'encoding-app'; secret: string };
  acmeApp: { account: 'acme'; name: 'acme-app'; secret: string };
  /** other: a second account. */
  bob: { account: 'other'; name: 'bob'; secret: string };
  /** An operator of the service, in no account. */
  operator: { name: 'oncall'; secret: string };
}

/**
 * The test accounts, as credentials and as the accounts file (ACCOUNTS_FILE's shape) that creates
 * them. Secrets are at least 32 characters, as application keys must be.
 */
export function testAccounts(options: { withOperator: boolean }) {
  const secret = (label: string) => `${label}-${Math.random().toString(36).slice(2)}-0123456789abcdef0123456789`;
  const credentials: TestCredentials = {
    alice: { account: 'acme', name: 'alice', secret: secret('alice') },
    encodingApp: { account: 'acme', name: 'encoding-app', secret: secret('encoding') },
    acmeApp: { account: 'acme', name: 'acme-app', secret: secret('acme') },
    bob: { account: 'other', name: 'bob', secret: secret('bob') },
    operator: { name: 'oncall', secret: secret('oncall') },
  };
  const file = {
    accounts: [
      {
        name: 'acme',
        users: [{ name: 'alice', password: credentials.alice.secret, choreos: ['/**'] }],
        apps: [
          { name: 'encoding-app', key: credentials.encodingApp.secret, choreos: ['/Library/Utilities/Encoding/**'] },
          { name: 'acme-app', key: credentials.acmeApp.secret, choreos: ['/**'], rights: ['presets' as const] },
        ],
      },
      { name: 'other', users: [{ name: 'bob', password: credentials.bob.secret, choreos: ['/**'] }], apps: [] },
    ],
    // A password hash takes a while: only the tests that need the operator pay for it.
    operators: options.withOperator ? [{ name: 'oncall', password: credentials.operator.secret }] : [],
  };
  return { credentials, file };
}
