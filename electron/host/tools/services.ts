// The host services a tool may use, passed in through ToolContext (no singletons). Each area adds
// its service here as an optional member; a tool whose service is missing returns an error payload.
// Keep one line per service, typed by the owning module.

export interface ToolServices {
  [name: string]: unknown;
}
