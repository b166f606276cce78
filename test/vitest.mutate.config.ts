import base from './vitest.config';

// The mutation run's vitest config (build/mutate.mjs): the suite's config, limited to the test
// files of the module being mutated (MEWBO_MUTATE_TESTS, a JSON list of globs). Narrowing here
// rather than with Stryker's `testFiles` keeps module-level (static) mutants honest: with
// `testFiles`, Stryker 9.6 activates them after the module was imported, so every one of them
// "survives" (stryker-js#6144).
const include = JSON.parse(process.env.MEWBO_MUTATE_TESTS ?? '[]') as string[];
if (!include.length) throw new Error('MEWBO_MUTATE_TESTS names no test files');

// The suite's unit/integration split is dropped: here the files are the module's, each isolated.
export default { ...base, test: { ...base.test, projects: undefined, include } };
