export { CONFIG_EXIT_CODE, ConfigError, parseEnv } from './parse-env.ts';
export { displayClusterNodes, displayUrl } from './display-url.ts';
export * as fields from './fields.ts';
export { loadConfigOrExit } from './load-or-exit.ts';
export { forVariable, listenVariables } from './for-variable.ts';
