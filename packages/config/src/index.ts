export { ConfigError, parseEnv } from './parse-env.ts';
export * as fields from './fields.ts';
