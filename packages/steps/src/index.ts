export { createStepLibrary, DEFAULT_STEP_LIBRARY_OPTIONS } from './step-library.ts';
export type { StepLibraryOptions } from './step-library.ts';
export { createHttpPoster } from './http-request.ts';
export type { HttpStepOptions } from './http-request.ts';
