import type { TrustItem } from '../../../shared/protocol/commands/trust';

// What trusting a project would start, for the trust prompt: each area that waits for trust
// contributes its own items (MCP: the `.mcp.json` servers with their commands; LSP: language
// servers the project ships; rules: hooks). A source that fails contributes a line saying so
// rather than hiding the rest.

export type TrustPreviewSource = (root: string) => Promise<TrustItem[]>;

export async function previewTrust(
  root: string,
  sources: readonly TrustPreviewSource[],
): Promise<TrustItem[]> {
  const parts = await Promise.allSettled(sources.map((s) => s(root)));
  return parts.flatMap((p) =>
    p.status === 'fulfilled'
      ? p.value
      : [{ kind: 'hook' as const, name: 'unknown', detail: `could not read: ${String(p.reason)}` }],
  );
}
