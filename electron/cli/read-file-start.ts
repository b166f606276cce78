import { commandBundle } from './code-cache';
import { exitWith, runCommand } from './run-command';

// `mewbo tool read_file ...` as the launcher (dist/mewbo) starts it:
// `node dist/cli-read-file-start.cjs tool read_file ...`. A CommonJS script, the least Node loads
// before running anything (an ES module entry such as dist/cli.js costs Node's module loader
// first), which runs read_file's own bundle with its V8 code cache (./read-file-command.ts,
// ./code-cache.ts). Issue #26 part 4 measures this start against `node -e 0`.

const bundle = commandBundle<typeof import('./read-file-command')>('read-file');
exitWith(runCommand('tool', bundle.exports.readFileCommand, process.argv.slice(3)));
