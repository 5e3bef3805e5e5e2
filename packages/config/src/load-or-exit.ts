import { ConfigError } from './parse-env.ts';

/**
 * For entry points: parses the configuration, or prints which variables are wrong and exits
 * with CONFIG_EXIT_CODE, the way a process must refuse to start on a bad value.
 */
export function loadConfigOrExit<Config>(processName: string, load: () => Config): Config {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${processName}: ${error.message}\n`);
      process.exit(error.exitCode);
    }
    throw error;
  }
}
