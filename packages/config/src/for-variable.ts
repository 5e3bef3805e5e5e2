import { ConfigError } from './parse-env.ts';

/**
 * Runs a start-up step that acts on a variable's value (reads the file it names, listens on the
 * port it gives) and turns its failure into a ConfigError naming the variable, so that a value
 * that parses but does not work stops the process the way a malformed one does. `variable` may
 * depend on the failure: listening fails for the port or for the address.
 */
export async function forVariable<T>(variable: string | ((error: unknown) => string), action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    const name = typeof variable === 'string' ? variable : variable(error);
    throw new ConfigError([{ variable: name, problem: error instanceof Error ? error.message : String(error) }]);
  }
}

/** Which variable a failure to listen on `<address>:<port>` is about. */
export function listenVariables(names: { port: string; address?: string }): (error: unknown) => string {
  return (error) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (names.address && (code === 'ENOTFOUND' || code === 'EADDRNOTAVAIL' || code === 'EAI_AGAIN' || code === 'EINVAL')) return names.address;
    return names.port;
  };
}
