import { type ChoreoDefinition, type NodeDefinition, parseProgressAddress, type StepLibrary, walkDefinition } from '@ces/language';
import { openProgressEntries, openSealedResults, sealProgressEntries, type SecretCipher, type StoredProgressEntry } from '@ces/store';

/**
 * A child's result holds its outputs, opened for the parent (child-runs.ts), secret ones among
 * them. Which Choreo a `choreo.run` step starts is known only when it runs (its `choreo` is a
 * template; an account's Choreo changes with its versions), so with a key every such result is
 * sealed, at the cost of one encryption per checkpoint. Without a key none is: a child with secret
 * outputs cannot run there, and its parent's step fails before it has a result to keep.
 */
const CHILD_RUN_KIND = 'choreo.run';

/** A step or block, with the blocks it is in, outermost first. */
interface PlacedNode {
  readonly node: NodeDefinition;
  readonly within: readonly string[];
}

const isLoop = (node: NodeDefinition) => 'forEach' in node || 'repeat' in node;

/**
 * What of a definition may carry a value into its result, searched for the ids it names: a step's
 * whole definition; a loop's own (its list, its items), which each of its steps sees as
 * `loop.item`; none for other blocks, whose results are their steps'.
 */
function ownText(node: NodeDefinition): string | undefined {
  // Without its own id: a loop around a secret step names itself, not a secret.
  if ('kind' in node) {
    const { id: _id, ...own } = node;
    return JSON.stringify(own);
  }
  if (!isLoop(node)) return undefined;
  const { id: _id, steps: _steps, ...own } = node as NodeDefinition & { steps: unknown };
  return JSON.stringify(own);
}

/**
 * The ids (steps and blocks, at any depth: ids are unique in a Choreo) whose results a run of
 * `definition` keeps sealed: the steps of a kind that declares its result secret (and `choreo.run`
 * when `sealChildRuns`); every step whose definition names one of those (a text step that copies a
 * token), read as a whole word, which errs on the side of sealing; every block around one (its
 * result may be that step's); and a loop whose list or items name one, with every step inside it
 * (each sees the item as `loop.item`).
 */
export function secretResultIds(definition: ChoreoDefinition, steps: StepLibrary, sealChildRuns: boolean): ReadonlySet<string> {
  const placed: PlacedNode[] = [];
  walkDefinition(definition.steps, (node, _path, scope) => placed.push({ node, within: scope.ancestors }));
  const secret = new Set<string>();
  const mark = (entry: PlacedNode) => {
    secret.add(entry.node.id);
    for (const id of entry.within) secret.add(id);
  };
  for (const entry of placed) {
    const { node } = entry;
    if ('kind' in node && (steps.get(node.kind)?.secretResult === true || (sealChildRuns && node.kind === CHILD_RUN_KIND))) mark(entry);
  }
  if (secret.size === 0) return secret;
  const texts = new Map(placed.map((entry) => [entry, ownText(entry.node)]));
  // Until nothing more names a secret one; each round marks at least one more, or ends.
  for (let before = -1; before !== secret.size; ) {
    before = secret.size;
    const names = new RegExp(`(?<![A-Za-z0-9_-])(?:${[...secret].map((id) => id.replaceAll('-', '\\-')).join('|')})(?![A-Za-z0-9_-])`);
    for (const entry of placed) {
      const text = texts.get(entry);
      if (text === undefined || !names.test(text)) continue;
      const loop = isLoop(entry.node);
      if (secret.has(entry.node.id) && !loop) continue;
      mark(entry);
      if (loop) for (const inside of placed) if (inside.within.includes(entry.node.id)) secret.add(inside.node.id);
    }
  }
  return secret;
}

/**
 * Whether a progress entry at `address` is the result of a step or an iteration `secret` names.
 * Other entries (a failure, a wait's due time, its token, a call back) are not results.
 */
export function isSecretEntry(secret: ReadonlySet<string>, address: string): boolean {
  const entry = parseProgressAddress(address);
  return entry !== undefined && entry.holds === 'result' && secret.has(entry.id);
}

/**
 * secretResultIds of one worker, worked out once per definition: a worker parses each definition
 * once (definition-cache.ts) and hands the same object to every take.
 */
export function secretResultIdsOnce(steps: StepLibrary, sealChildRuns: boolean): (definition: ChoreoDefinition) => ReadonlySet<string> {
  const known = new WeakMap<ChoreoDefinition, ReadonlySet<string>>();
  return (definition) => {
    let secret = known.get(definition);
    if (secret === undefined) {
      secret = secretResultIds(definition, steps, sealChildRuns);
      known.set(definition, secret);
    }
    return secret;
  };
}

export interface ResultSealing {
  /** The results map of a record checkpointed by an earlier version (its `$sealed` entry), opened for the run to resume from. */
  openResults(results: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /** Progress entries (top-level results, inside a block, of a durable wait) as stored: the secret ones sealed. */
  sealEntries(entries: readonly StoredProgressEntry[]): StoredProgressEntry[];
  /** Stored progress entries, opened for the run to resume from. */
  openEntries(entries: Iterable<StoredProgressEntry>): Map<string, unknown>;
}

/**
 * How one run's step results go to its progress and come back: those `secret` names sealed, bound
 * to the execution and the entry's address, each time they are stored (checkpoint, progress, a
 * durable wait's entries).
 */
export function resultSealing(cipher: SecretCipher | undefined, executionId: string, secret: ReadonlySet<string>): ResultSealing {
  const isSecretAddress = (address: string) => isSecretEntry(secret, address);
  if (secret.size === 0) {
    return {
      // Sealed by nothing this worker knows of; opened all the same, should a checkpoint hold any.
      openResults: (results) => openSealedResults(cipher, executionId, results),
      sealEntries: (entries) => [...entries],
      openEntries: (entries) => new Map(entries),
    };
  }
  return {
    openResults: (results) => openSealedResults(cipher, executionId, results),
    sealEntries: (entries) => sealProgressEntries(cipher, executionId, entries, isSecretAddress),
    openEntries: (entries) => openProgressEntries(cipher, executionId, entries, isSecretAddress),
  };
}
