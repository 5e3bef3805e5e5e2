export { renderCatalogueDocs } from './catalogue-docs.ts';
export { loadCatalogue } from './catalogue.ts';
export type { Catalogue, CatalogueEntry, ValidCatalogueEntry } from './catalogue.ts';
export { checkChoreoDocument, DEFAULT_CHOREO_DOCUMENT_LIMITS, isValidChoreoId } from './choreo-document.ts';
export type { ChoreoDocumentLimits } from './choreo-document.ts';
