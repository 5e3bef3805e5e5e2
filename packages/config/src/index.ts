export { ConfigError, parseEnv } from './parse-env.ts';
export * as fields from './fields.ts';
export { loadConfigOrExit } from './load-or-exit.ts';
