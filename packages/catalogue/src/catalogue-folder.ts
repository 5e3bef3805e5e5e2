import { fileURLToPath } from 'node:url';

/** The catalogue checked in at the repository root (`choreos/`). */
export const repositoryCatalogueDir = fileURLToPath(new URL('../../../choreos', import.meta.url));
