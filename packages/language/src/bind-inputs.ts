import type { ChoreoDefinition } from './definition.ts';

export type BindInputsResult = { ok: true; inputs: Record<string, string> } | { ok: false; missing: string[] };

/** Applies defaults and drops names the Choreo does not declare; reports missing required inputs. */
export function bindInputs(definition: ChoreoDefinition, provided: Readonly<Record<string, string>>): BindInputsResult {
  const inputs: Record<string, string> = {};
  const missing: string[] = [];
  for (const [name, input] of Object.entries(definition.inputs)) {
    const value = Object.hasOwn(provided, name) ? provided[name] : undefined;
    if (value !== undefined) inputs[name] = value;
    else if (input.default !== undefined) inputs[name] = input.default;
    else if (input.required) missing.push(name);
  }
  return missing.length === 0 ? { ok: true, inputs } : { ok: false, missing };
}
