import { createRequire } from 'node:module';

const requireLibrary = createRequire(import.meta.url);

/**
 * A library loaded the first time it is used rather than when the package using it is imported: the
 * heavy ones (mail, XML, dates, the code sandbox…) serve a few steps each, and an API or a worker
 * that never runs those steps should not start slower for them. The load is synchronous (Node's
 * `require`, which also takes ES modules) so that the helpers calling it stay synchronous; it
 * happens once per process, on the first step that needs the library.
 *
 * Give the library's type with a type-only import: `libraryOnFirstUse<typeof Mail>('nodemailer')`.
 */
export function libraryOnFirstUse<Library>(specifier: string): () => Library {
  let library: Library | undefined;
  return () => {
    library ??= requireLibrary(specifier) as Library;
    return library;
  };
}
