import { readFileTool } from '../host/tools/read-file';
import { toolCommandWith } from './tool';

// dist/cli-read-file.cjs: `mewbo tool read_file` with read_file's code alone (./read-file-start.ts
// runs it). Its build (build/tool-snapshot.mjs) leaves out what a module loads by import(): the
// other tools' code, shells, the sandbox, LSP, none of which a read reaches. The one such load a
// read can meet, the config reader when configs/app.json is not the text last accepted
// (host/config/checked-config.ts), comes from a bundle of its own, dist/cli-config-check.cjs.
// Nothing on this path loads classic zod: read_file's schemas are zod/mini ones.

/** `mewbo tool` that knows read_file alone (the launcher gives it no other tool). */
export const readFileCommand = toolCommandWith(async (name) =>
  name === readFileTool.name ? readFileTool : undefined,
);
