// The host services a tool may use, passed in through ToolContext (no singletons). Each area adds
// its service here as an optional member; a tool whose service is missing returns an error payload.
// Keep one line per service, typed by the owning module.

import type { ReadState } from './read-state';

export interface ToolServices {
  /** read_file: slices already read this session (dedup) and line indexes of big files. */
  readState?: ReadState;
  [name: string]: unknown;
}
