import type { LspService } from './lsp-service';
import type { CreateLspOptions } from './create-lsp-service';

// What tools use of the language servers, and a stand-in that loads the LSP code (the protocol
// library and the service, a large part of a CLI start) only on the first call that needs a server.
// A `mewbo tool` or `mewbo mcp` run that never edits a typed file never pays for it.

export type LspApi = Pick<
  LspService,
  | 'diagnostics'
  | 'hover'
  | 'definition'
  | 'references'
  | 'diagnosticsAfterEdit'
  | 'warm'
  | 'runningServers'
>;

export function lazyLspService(opts: CreateLspOptions): LspApi {
  let loaded: LspService | null = null;
  let loading: Promise<LspService> | null = null;
  const service = (): Promise<LspService> =>
    (loading ??= import('./create-lsp-service').then((m) => (loaded = m.createLspService(opts))));
  return {
    diagnostics: async (...a) => (await service()).diagnostics(...a),
    hover: async (...a) => (await service()).hover(...a),
    definition: async (...a) => (await service()).definition(...a),
    references: async (...a) => (await service()).references(...a),
    diagnosticsAfterEdit: async (...a) => (await service()).diagnosticsAfterEdit(...a),
    warm: (...a) =>
      void service().then(
        (s) => s.warm(...a),
        () => undefined,
      ),
    runningServers: () => loaded?.runningServers() ?? [],
  };
}
