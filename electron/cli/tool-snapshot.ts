import { startToolSnapshot } from './snapshot-main';
import { toolCommand } from './tool';

// dist/cli-tool.blob, the start-up snapshot of `mewbo tool` with every tool (./snapshot-main.ts).
// read_file has one of its own, with nothing else in its heap (./read-file-snapshot.ts).
startToolSnapshot(toolCommand, () => toolCommand);
