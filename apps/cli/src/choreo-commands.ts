import type { ChoreoDocument } from '@ces/client';
import { EXIT, UsageError } from './cli-errors.ts';
import { type CommandContext, emit } from './command-context.ts';
import { table } from './values.ts';

export async function listChoreos(context: CommandContext) {
  const choreos = await context.client.choreos.list();
  emit(context, { choreos }, choreos.length === 0 ? ['No Choreos.'] : choreos);
  return EXIT.ok;
}

export async function showChoreo(context: CommandContext, id: string) {
  const details = await context.client.choreos.show(id);
  const rows = (values: Record<string, { description: string }>) =>
    Object.entries(values).map(([name, value]) => [name, value.description.replace(/\s+/g, ' ')]);
  emit(context, details, [
    `valid:   ${details.valid}${details.version ? `\nversion: ${details.version}` : ''}`,
    '',
    ...table(['INPUT', 'DESCRIPTION'], rows(details.inputs)),
    '',
    ...table(['OUTPUT', 'DESCRIPTION'], rows(details.outputs)),
  ]);
  return EXIT.ok;
}

/** Writes a Choreo document from a file as the next version of one of the account's own ids. */
export async function pushChoreo(context: CommandContext, file: string, id: string) {
  let document: unknown;
  try {
    document = JSON.parse(await context.io.readFile(file));
  } catch (error) {
    throw new UsageError(`cannot read a JSON Choreo document from ${file}: ${(error as Error).message}`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new UsageError(`${file} holds no JSON object`);
  // The service checks the document and answers every problem of it: the command only reads it.
  const { created, details } = await context.client.choreos.push(id, document as ChoreoDocument);
  emit(context, { id, created, ...details }, [`${created ? 'created' : 'replaced'} ${id}: version ${details.version}`]);
  return EXIT.ok;
}
