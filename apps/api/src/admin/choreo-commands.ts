import { checkChoreoDocument, DEFAULT_CHOREO_DOCUMENT_LIMITS, isValidChoreoId } from '@ces/catalogue';
import { createStepLibrary } from '@ces/steps';
import { z } from 'zod';
import { AdminError, UsageError } from './admin-error.ts';
import { emit, table, type CommandContext } from './command-context.ts';

/**
 * An account's own Choreos (those it wrote with PUT /choreos/<id>): list, export to stdout and
 * import from stdin, to move them between deployments or keep them under version control.
 */

/** What `choreos export` writes and `choreos import` reads. */
const exportSchema = z.strictObject({
  account: z.string().optional(),
  choreos: z.array(z.strictObject({ id: z.string(), version: z.number().int().positive().optional(), document: z.unknown() })),
});

async function requireAccount(context: CommandContext, account: string) {
  if (!(await context.accounts.accountExists(account))) throw new AdminError(`no account named "${account}"`);
}

export async function listChoreos(context: CommandContext, account: string) {
  await requireAccount(context, account);
  const stored = await context.choreos.all(account);
  const rows = stored.map(({ id, version, updated, document }) => ({ id, version, updated, bytes: Buffer.byteLength(document) }));
  emit(
    context,
    { account, choreos: rows },
    rows.length === 0
      ? [`Account "${account}" has no Choreos of its own.`]
      : table(
          ['CHOREO', 'VERSION', 'UPDATED', 'BYTES'],
          rows.map((r) => [r.id, String(r.version), new Date(r.updated).toISOString(), String(r.bytes)]),
        ),
  );
}

export async function exportChoreos(context: CommandContext, account: string) {
  await requireAccount(context, account);
  const stored = await context.choreos.all(account);
  const choreos = stored.map(({ id, version, document }) => ({ id, version, document: JSON.parse(document) as unknown }));
  context.io.out(JSON.stringify({ account, choreos }, null, 2));
}

/**
 * Writes every Choreo of an export into the account, each as its next version. All are checked
 * first, as the API checks them: one that is not a Choreo and none is written. The account's
 * bounds on its number of Choreos and their bytes are the API's, and not applied here: the
 * operator decides.
 */
export async function importChoreos(context: CommandContext, account: string) {
  await requireAccount(context, account);
  let parsed: z.infer<typeof exportSchema>;
  try {
    parsed = exportSchema.parse(JSON.parse(await context.io.readStdin()));
  } catch (error) {
    throw new UsageError(`stdin must hold what choreos export writes: {"choreos": [{"id", "document"}]} (${(error as Error).message.split('\n')[0]})`);
  }
  const steps = createStepLibrary();
  const problems: string[] = [];
  const documents = parsed.choreos.map(({ id, document }) => {
    const text = JSON.stringify(document);
    if (!isValidChoreoId(id) || id.startsWith('/Library/')) problems.push(`${id}: not an id an account may write`);
    const checked = checkChoreoDocument(id, text, steps, DEFAULT_CHOREO_DOCUMENT_LIMITS);
    if (!checked.ok) for (const problem of checked.problems) problems.push(`${id}${problem.pointer}: ${problem.message}`);
    return { id, text };
  });
  if (problems.length > 0) throw new AdminError(`nothing imported:\n  ${problems.join('\n  ')}`);
  const written: { id: string; version: number }[] = [];
  for (const { id, text } of documents) {
    const result = await context.choreos.put(account, id, text, { maxCount: 0, maxBytes: 0 });
    if (result.outcome === 'created' || result.outcome === 'replaced') written.push({ id, version: result.version });
  }
  emit(
    context,
    { account, imported: written },
    written.map(({ id, version }) => `Imported ${id} as version ${version}.`),
  );
}
