import { EXIT, UsageError } from './cli-errors.ts';
import { type CommandContext, emit } from './command-context.ts';
import { table } from './values.ts';

export async function listPresets(context: CommandContext) {
  const presets = await context.client.presets.list();
  emit(context, { presets }, presets.length === 0 ? ['No presets.'] : presets);
  return EXIT.ok;
}

export async function showPreset(context: CommandContext, name: string, values: boolean) {
  const preset = await context.client.presets.show(name, { values });
  emit(
    context,
    preset,
    table(
      ['INPUT', 'VALUE', 'SECRET'],
      preset.inputs.map((input) => [input.name, input.value, input.secret ? 'yes' : 'no']),
    ),
  );
  return EXIT.ok;
}

/** Stores the preset with `-i` inputs; those named by `--secret` are never shown again. */
export async function putPreset(context: CommandContext, name: string, inputs: { name: string; value: string }[], secrets: readonly string[]) {
  if (inputs.length === 0) throw new UsageError('presets put needs its inputs: -i Name=Value (repeatable)');
  const unknown = secrets.filter((secret) => !inputs.some((input) => input.name === secret));
  if (unknown.length > 0) throw new UsageError(`--secret ${unknown.join(', ')}: no such input given with -i`);
  const { created, preset } = await context.client.presets.put(
    name,
    inputs.map((input) => ({ ...input, secret: secrets.includes(input.name) })),
  );
  emit(context, { created, ...preset }, [`${created ? 'created' : 'replaced'} preset ${name} (${preset.inputs.length} inputs)`]);
  return EXIT.ok;
}

export async function deletePreset(context: CommandContext, name: string) {
  await context.client.presets.delete(name);
  emit(context, { name, deleted: true }, [`deleted preset ${name}`]);
  return EXIT.ok;
}
