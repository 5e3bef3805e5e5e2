import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  childReferenceProblems,
  childReferences,
  type ChoreoDefinition,
  definitionDigest,
  type InputDefinition,
  inputDefinitionSchema,
  isInstantChoreo,
  type OutputDefinition,
  outputDefinitionSchema,
  parseDefinition,
  type StepLibrary,
} from '@ces/language';
import { createStepLibrary } from '@ces/steps';

/** Where the shipped catalogue's ids start. */
const LIBRARY_PREFIX = '/Library/';
const MAX_DEFINITION_BYTES = 1024 * 1024;
/** One segment of a Choreo id, for the files of the catalogue and the Choreos accounts write alike. */
export const CHOREO_ID_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

interface EntryBase {
  /** "/Library/Utilities/Encoding/Base64Encode" for choreos/Library/Utilities/Encoding/Base64Encode.json. */
  readonly id: string;
  readonly file: string;
  readonly description: string;
  readonly timeLimitSeconds: number | undefined;
  readonly inputs: Readonly<Record<string, InputDefinition>>;
  readonly outputs: Readonly<Record<string, OutputDefinition>>;
}

export interface ValidCatalogueEntry extends EntryBase {
  readonly valid: true;
  readonly problems: readonly [];
  readonly definition: ChoreoDefinition;
  /** definitionDigest(definition), to record which definition a run was accepted with. */
  readonly digest: string;
  /** isInstantChoreo(definition): its runs may be handed to workers whole (see the job data). */
  readonly instant: boolean;
}

/** Listed so that operators see it, but never run. */
export interface InvalidCatalogueEntry extends EntryBase {
  readonly valid: false;
  readonly problems: readonly string[];
}

export type CatalogueEntry = ValidCatalogueEntry | InvalidCatalogueEntry;

export interface Catalogue {
  /** Every entry, valid or not, sorted by id. */
  list(): readonly CatalogueEntry[];
  get(id: string): CatalogueEntry | undefined;
}

/**
 * Reads every `*.json` below `dir`. Ids come only from files actually found (symbolic links and
 * dot-files are skipped), so no id can point outside the folder. One bad file becomes an invalid
 * entry; only an unreadable `dir` itself throws.
 */
export async function loadCatalogue(dir: string, steps: StepLibrary = createStepLibrary()): Promise<Catalogue> {
  const entries: CatalogueEntry[] = [];
  for (const { file, segments } of await findDefinitionFiles(dir, [])) {
    entries.push(await loadEntry(file, segments, steps));
  }
  refuseBrokenChildReferences(entries);
  entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  return { list: () => entries, get: (id) => byId.get(id) };
}

/**
 * Marks invalid, in place, the entries that run as a child a Library Choreo that is missing or
 * invalid, or that run one another in a cycle: checked once the whole catalogue is read. Ids
 * outside the Library (an account's own Choreos) are looked up when the step runs.
 */
function refuseBrokenChildReferences(entries: CatalogueEntry[]): void {
  const references = new Map<string, string[]>();
  for (const entry of entries) if (entry.valid) references.set(entry.id, childReferences(entry.definition));
  const problems = childReferenceProblems(references, (id) => !id.startsWith(LIBRARY_PREFIX) || references.has(id));
  for (const [index, entry] of entries.entries()) {
    const found = problems.get(entry.id);
    if (found === undefined) continue;
    entries[index] = { id: entry.id, file: entry.file, valid: false, problems: found, ...pickDeclarations(entry) };
  }
}

function pickDeclarations(entry: CatalogueEntry): Pick<EntryBase, 'description' | 'timeLimitSeconds' | 'inputs' | 'outputs'> {
  return { description: entry.description, timeLimitSeconds: entry.timeLimitSeconds, inputs: entry.inputs, outputs: entry.outputs };
}

async function findDefinitionFiles(dir: string, segments: string[]): Promise<{ file: string; segments: string[] }[]> {
  const found: { file: string; segments: string[] }[] = [];
  for (const dirent of await readdir(dir, { withFileTypes: true })) {
    if (dirent.name.startsWith('.')) continue;
    const path = join(dir, dirent.name);
    if (dirent.isDirectory()) found.push(...(await findDefinitionFiles(path, [...segments, dirent.name])));
    else if (dirent.isFile() && dirent.name.endsWith('.json')) found.push({ file: path, segments: [...segments, dirent.name.slice(0, -'.json'.length)] });
  }
  return found;
}

async function loadEntry(file: string, segments: string[], steps: StepLibrary): Promise<CatalogueEntry> {
  const id = `/${segments.join('/')}`;
  const invalid = (problems: string[], raw?: unknown): InvalidCatalogueEntry => ({ id, file, valid: false, problems, ...readDeclarations(raw) });

  const badSegment = segments.find((segment) => !CHOREO_ID_SEGMENT.test(segment));
  if (badSegment !== undefined) return invalid([`"${badSegment}" is not allowed in a Choreo id: use letters, digits, "_", "-" and "."`]);
  let text: string;
  try {
    const size = (await stat(file)).size;
    if (size > MAX_DEFINITION_BYTES) return invalid([`the file is ${size} bytes, more than ${MAX_DEFINITION_BYTES}`]);
    text = await readFile(file, 'utf8');
  } catch (error) {
    return invalid([`the file cannot be read: ${(error as Error).message}`]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return invalid([`the file is not valid JSON: ${(error as Error).message}`]);
  }
  const result = parseDefinition(raw, steps);
  if (!result.ok) return invalid(result.problems, raw);
  return validEntry(id, file, result.definition, steps);
}

/** The entry of a definition that passed parseDefinition, wherever it was read from. */
export function validEntry(id: string, file: string, definition: ChoreoDefinition, steps: StepLibrary): ValidCatalogueEntry {
  return {
    id,
    file,
    valid: true,
    problems: [],
    description: definition.description,
    timeLimitSeconds: definition.timeLimitSeconds,
    inputs: definition.inputs,
    outputs: definition.outputs,
    definition,
    digest: definitionDigest(definition),
    instant: isInstantChoreo(definition, steps),
  };
}

/** Whatever declarations of an invalid document can still be read, for the listing. */
function readDeclarations(raw: unknown): Pick<EntryBase, 'description' | 'timeLimitSeconds' | 'inputs' | 'outputs'> {
  const document = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const pick = <T>(value: unknown, parse: (item: unknown) => T | undefined): Record<string, T> => {
    const picked: Record<string, T> = {};
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return picked;
    for (const [name, item] of Object.entries(value)) {
      const parsed = parse(item);
      if (parsed !== undefined && name !== '__proto__') picked[name] = parsed;
    }
    return picked;
  };
  const timeLimit = document.timeLimitSeconds;
  return {
    description: typeof document.description === 'string' ? document.description : '',
    timeLimitSeconds: typeof timeLimit === 'number' && Number.isInteger(timeLimit) && timeLimit > 0 ? timeLimit : undefined,
    inputs: pick(document.inputs, (item) => inputDefinitionSchema.safeParse(item).data),
    outputs: pick(document.outputs, (item) => outputDefinitionSchema.safeParse(item).data),
  };
}
