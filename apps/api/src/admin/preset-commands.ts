import type { PresetStore, TokenStore } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';
import { parsePresetRequest } from '../formats/preset-request.ts';
import { MASKED_VALUE } from '../formats/representations.ts';
import { PRESET_NAME } from '../presets/preset-access.ts';
import { AdminError, UsageError } from './admin-error.ts';
import { emit, table, type CommandContext } from './command-context.ts';

/**
 * Preset and secrets-key commands: what `PUT/GET/DELETE /presets` do, for an operator, and the
 * re-encryption that completes a rotation of SECRETS_KEY. Values are read from stdin, never from
 * the command line (where shell history and the process list would keep them).
 */

function presetsOf(context: CommandContext): PresetStore {
  if (!context.presets) throw new AdminError('presets need SECRETS_KEY (the same key as the API and workers)');
  return context.presets;
}

async function requireAccount(context: CommandContext, account: string) {
  if (!(await context.accounts.accountExists(account))) throw new AdminError(`no account named "${account}"`);
}

export function checkPresetName(name: string): void {
  if (!PRESET_NAME.test(name))
    throw new UsageError(`"${name}" is not a preset name: letters, digits and . _ @ -, at most 128, starting with a letter or digit`);
}

export async function listPresets(context: CommandContext, account: string) {
  await requireAccount(context, account);
  const names = await presetsOf(context).list(account);
  emit(context, { account, presets: names }, names.length === 0 ? [`Account "${account}" has no presets.`] : names);
}

/** Values masked; with `--values`, those of inputs not marked secret are shown. */
export async function showPreset(context: CommandContext, account: string, name: string, showValues: boolean) {
  await requireAccount(context, account);
  const presets = presetsOf(context);
  const inputs = showValues
    ? await presets.read(account, name)
    : (await presets.describe(account, name))?.inputs.map((input) => ({ ...input, value: MASKED_VALUE }));
  if (!inputs) throw new AdminError(`no preset "${name}" in account "${account}"`);
  const shown = inputs.map((input) => ({ name: input.name, value: input.secret ? MASKED_VALUE : input.value, secret: input.secret }));
  emit(
    context,
    { account, preset: name, inputs: shown },
    table(
      ['INPUT', 'VALUE', 'SECRET'],
      shown.map((input) => [input.name, input.value, input.secret ? 'yes' : '']),
    ),
  );
}

/** The input set is read from stdin as `PUT /presets/<name>` takes it (JSON). */
export async function putPreset(context: CommandContext, account: string, name: string) {
  await requireAccount(context, account);
  const presets = presetsOf(context);
  let inputs: ReturnType<typeof parsePresetRequest>;
  try {
    inputs = parsePresetRequest(await context.io.readStdin(), 'application/json');
  } catch (error) {
    if (error instanceof ApiError) throw new UsageError(`stdin: ${error.message}`);
    throw error;
  }
  const outcome = await presets.put(account, name, inputs);
  if (outcome === 'too-many') throw new AdminError(`account "${account}" keeps as many presets as it may; delete one first`);
  emit(context, { account, preset: name, [outcome]: true, inputs: inputs.map((input) => input.name) }, [
    `${outcome === 'created' ? 'Created' : 'Replaced'} preset "${name}" of account "${account}" (inputs: ${inputs.map((input) => input.name).join(', ')}).`,
  ]);
}

export async function deletePreset(context: CommandContext, account: string, name: string) {
  await requireAccount(context, account);
  if (!(await presetsOf(context).delete(account, name))) throw new AdminError(`no preset "${name}" in account "${account}"`);
  emit(context, { account, preset: name, deleted: true }, [`Deleted preset "${name}" of account "${account}".`]);
}

/**
 * After a rotation (the new key in SECRETS_KEY, the old one in SECRETS_KEY_PREVIOUS), seals every
 * preset value, stored token and retained execution's sealed inputs and outputs sealed with an old
 * key again under the new one; then the old key may be dropped. Safe to run again, and while the
 * service runs.
 */
export async function resealSecrets(context: CommandContext) {
  const presets = presetsOf(context);
  const tokens: TokenStore | undefined = context.tokens;
  const resealExecutions = context.resealExecutions;
  if (!tokens || !resealExecutions) throw new AdminError('re-encryption needs SECRETS_KEY');
  let presetValues = 0;
  let tokenValues = 0;
  let webhookSecrets = 0;
  for (const account of await context.accounts.listAccounts()) {
    presetValues += await presets.reseal(account);
    tokenValues += await tokens.reseal(account);
    webhookSecrets += (await context.webhooks?.reseal(account)) ?? 0;
  }
  const executions = await resealExecutions();
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  emit(context, { presets: presetValues, tokens: tokenValues, webhooks: webhookSecrets, executions }, [
    `Sealed again under the current SECRETS_KEY: ${plural(presetValues, 'preset')}, ${plural(tokenValues, 'token')}, ${plural(webhookSecrets, 'webhook')}, ${plural(executions, 'execution')}.`,
    'Once every API and worker runs with it, SECRETS_KEY_PREVIOUS may be removed.',
  ]);
}
