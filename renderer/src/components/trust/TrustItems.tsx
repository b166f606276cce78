import type { TrustItem } from '../../../../shared/protocol/commands/trust';

const KIND_LABEL: Record<TrustItem['kind'], string> = {
  mcp_server: 'MCP server',
  language_server: 'Language server',
  hook: 'Hook',
};

/** What trusting a project would start, one line each with the command it runs. */
export function TrustItems({ items }: { items: TrustItem[] }) {
  return (
    <ul className="trust-items" aria-label="Would start">
      {items.map((item, i) => (
        <li key={`${item.kind}:${item.name}:${i}`}>
          {KIND_LABEL[item.kind]} <strong>{item.name}</strong>: <code>{item.detail}</code>
        </li>
      ))}
    </ul>
  );
}
