export { createStepLibrary, DEFAULT_STEP_LIBRARY_OPTIONS } from './step-library.ts';
export type { StepLibraryOptions } from './step-library.ts';
