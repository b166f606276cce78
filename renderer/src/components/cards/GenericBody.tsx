import type { ToolPayload } from '../../../../shared/tools/payload';

/** Any tool without a card of its own (MCP tools, device tools): its arguments and its payload. */
export function GenericBody({ args, result }: { args: unknown; result?: ToolPayload }) {
  return (
    <div className="generic-body">
      {args !== undefined && args !== null && Object.keys(args as object).length > 0 && (
        <section>
          <h4 className="label">Arguments</h4>
          <pre className="code small">{JSON.stringify(args, null, 2)}</pre>
        </section>
      )}
      {result && (
        <section>
          <h4 className="label">Result</h4>
          <pre className="code small">{resultText(result)}</pre>
        </section>
      )}
    </div>
  );
}

function resultText(result: ToolPayload): string {
  // Text-shaped payloads read better as their text than as JSON with escaped newlines.
  for (const field of ['text', 'output', 'content']) {
    const v = result[field];
    if (typeof v === 'string') return v;
  }
  return JSON.stringify(result, null, 2);
}
