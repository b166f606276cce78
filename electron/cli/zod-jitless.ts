import { config } from 'zod/v4/core';

// Imported first by `mewbo tool`, before any module that builds a schema: one process, one call,
// so each schema parses once, and zod's compiled fast path (code it generates and compiles with
// new Function on a schema's first parse) costs more than it saves (issue #18). zod reads the
// setting when a schema is built, not when it parses: set any later (as it was, inside the
// command's run), it missed the config schema and the payload schemas built at load, and their
// one parse each still generated and compiled code (~17M of the ~255M instructions of
// `mewbo tool read_file`, issue #26 part 4). Through zod's core, whose configuration classic zod
// and zod/mini share: read_file's schemas are mini ones, and classic zod is not loaded for them.
config({ jitless: true });
