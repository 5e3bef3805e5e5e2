import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

/**
 * What the original's Node SDK says of each Choreo of its `Library/Utilities`: its location, and
 * the inputs and outputs its generated class has setters and getters for. Read by running the
 * SDK's own classes against a session that answers in process, so that the location is the one
 * the class really asks for.
 */
export interface SdkChoreo {
  /** The module under `temboo/Library/Utilities/`, e.g. `Encoding` or `Authentication/OAuth2`. */
  family: string;
  /** The class the module exports. */
  name: string;
  /** The Choreo id, with its leading slash. */
  location: string;
  inputs: string[];
  outputs: string[];
}

const require = createRequire(import.meta.url);
const UTILITIES_DIR = join(dirname(require.resolve('temboo/package.json')), 'Library', 'Utilities');

type Callback = (body: string) => void;
interface ChoreoInstance {
  newInputSet(): object;
  execute(inputs: object, onSuccess: (results: object) => void, onError: (error: unknown) => void): void;
}

function families(dir = UTILITIES_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return families(join(dir, entry.name));
    return entry.name.endsWith('.js') ? [relative(UTILITIES_DIR, join(dir, entry.name)).slice(0, -'.js'.length).split('\\').join('/')] : [];
  });
}

const namesWith = (object: object, prefix: string) =>
  Object.entries(object)
    .filter(([key, value]) => key.startsWith(prefix) && typeof value === 'function')
    .map(([key]) => key.slice(prefix.length));

export function readSdkUtilities(): SdkChoreo[] {
  const found: SdkChoreo[] = [];
  for (const family of families().sort()) {
    const module = require(`temboo/Library/Utilities/${family}`) as Record<string, new (session: object) => ChoreoInstance>;
    for (const [name, Choreo] of Object.entries(module)) {
      let path = '';
      let results: object | undefined;
      // The session the class runs against: it keeps the path asked for and answers a run at once.
      const session = {
        getBasePath: () => '',
        postRequest(requested: string, _params: object, _body: string, _version: unknown, onAnswer: Callback) {
          path = requested;
          onAnswer(JSON.stringify({ execution: { id: 'x', status: 'SUCCESS', starttime: '0', endtime: '0' }, output: {} }));
        },
      };
      const choreo = new Choreo(session);
      const inputSet = choreo.newInputSet();
      choreo.execute(
        inputSet,
        (answer) => {
          results = answer;
        },
        (error) => {
          throw new Error(`${family}.${name}: ${String(error)}`);
        },
      );
      if (!path.startsWith('/choreos/') || !results) throw new Error(`${family}.${name} did not run as the SDK runs a Choreo.`);
      found.push({
        family,
        name,
        location: path.slice('/choreos'.length).replace(/^\/+/, '/'),
        inputs: namesWith(inputSet, 'set_'),
        outputs: namesWith(results, 'get_'),
      });
    }
  }
  return found;
}

/** Each location, input or output of the SDK's Choreos that the catalogue under `catalogueDir` lacks, one line each. */
export function catalogueDrift(choreos: SdkChoreo[], catalogueDir: string): string[] {
  const missing: string[] = [];
  for (const choreo of choreos) {
    const file = join(catalogueDir, `${choreo.location}.json`);
    if (!existsSync(file)) {
      missing.push(`${choreo.location}: no such Choreo`);
      continue;
    }
    const definition = JSON.parse(readFileSync(file, 'utf8')) as { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };
    for (const input of choreo.inputs) if (!Object.hasOwn(definition.inputs ?? {}, input)) missing.push(`${choreo.location}: no input ${input}`);
    for (const output of choreo.outputs) if (!Object.hasOwn(definition.outputs ?? {}, output)) missing.push(`${choreo.location}: no output ${output}`);
  }
  return missing;
}
