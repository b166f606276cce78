import type { ToolPayload } from '../../../../shared/tools/payload';

/** A tool's error payload, readable: what went wrong first, the code and details after. */
export function ErrorBody({ payload }: { payload: ToolPayload }) {
  const message = typeof payload.message === 'string' ? payload.message : 'The tool failed.';
  const code = typeof payload.code === 'string' ? payload.code : null;
  // Empty details (no suggestions, no near match) say nothing: leave them out.
  const details = (
    payload.details && typeof payload.details === 'object'
      ? Object.entries(payload.details as Record<string, unknown>)
      : []
  ).filter(
    ([, v]) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0),
  );
  return (
    <div className="error-body" role="group" aria-label="Error">
      <p className="error-message">{message}</p>
      {(code || details.length > 0) && (
        <dl className="kv small">
          {code && (
            <>
              <dt>code</dt>
              <dd>
                <code>{code}</code>
              </dd>
            </>
          )}
          {details.map(([k, v]) => (
            <DetailRow key={k} name={k} value={v} />
          ))}
        </dl>
      )}
    </div>
  );
}

function DetailRow({ name, value }: { name: string; value: unknown }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const multiline = text.includes('\n');
  return (
    <>
      <dt>{name}</dt>
      <dd>{multiline ? <pre className="code small">{text}</pre> : <code>{text}</code>}</dd>
    </>
  );
}
