import { readFileTool } from '../host/tools/read-file';
import type { AnyTool } from '../host/tools/tool';
import { commandBundle } from './code-cache';
import { startToolSnapshot } from './snapshot-main';
import { toolCommandWith, toolNamed } from './tool';

// dist/cli-read-file.blob, the start-up snapshot the launcher runs `mewbo tool read_file` from
// (./snapshot-main.ts). Every start deserializes the whole heap, and the other tools' code
// (shells, sandbox, edits, LSP), there as source text to compile at its first call, made read_file
// start from 6.4 MB instead of 5.6 MB (an empty user snapshot is 4.1 MB): 148.9M instead of
// 137.4M instructions and 6,210 instead of 5,460 page faults. Its build leaves out what a module
// loads by import() (build/tool-snapshot.mjs), so it holds read_file's code alone. The other
// tools start from dist/cli-tool.blob, which holds them all; should this snapshot be given one
// (the launcher only reads `mewbo tool`'s next word), it runs from `mewbo tool`'s bundle,
// dist/cli-tool.cjs, as dist/cli.js runs it: the same sources, the same answers.

/** The tools whose code this snapshot holds, by name. */
const inSnapshot = new Map<string, AnyTool>([[readFileTool.name, readFileTool]]);
const readFileCommand = toolCommandWith(async (name) => inSnapshot.get(name));

// --help, bad usage and unknown names go to the bundle too, which answers them all.
startToolSnapshot(readFileCommand, (argv) =>
  inSnapshot.has(toolNamed(argv) ?? '')
    ? readFileCommand
    : commandBundle<typeof import('./tool')>('tool').exports.toolCommand,
);
