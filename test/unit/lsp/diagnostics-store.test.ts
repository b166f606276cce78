import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { DiagnosticsStore } from '../../../electron/host/lsp/diagnostics-store';

const diag = (message: string): Diagnostic => ({
  message,
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
});
const URI = 'file:///p/a.py';

describe('diagnostics store', () => {
  it('a versioned server is fresh only once it publishes the synced version or later', async () => {
    const store = new DiagnosticsStore();
    const wait = store.waitFresh(URI, { version: 3, seq: store.seq }, 5_000);
    store.publish({ uri: URI, version: 2, diagnostics: [diag('old')] });
    store.publish({ uri: 'file:///p/other.py', version: 3, diagnostics: [diag('other file')] });
    store.publish({ uri: URI, version: 3, diagnostics: [diag('new')] });
    expect((await wait)?.map((d) => d.message)).toEqual(['new']);
  });

  it('an unversioned server is fresh with the first publish after the sync', async () => {
    const store = new DiagnosticsStore();
    store.publish({ uri: URI, diagnostics: [diag('before the edit')] });
    const mark = { version: 2, seq: store.seq };
    const wait = store.waitFresh(URI, mark, 5_000);
    store.publish({ uri: URI, diagnostics: [] });
    expect(await wait).toEqual([]);
    expect(await store.waitFresh(URI, mark, 5_000)).toEqual([]);
  });

  it('a wait with no publish ends with null at its deadline, on abort, or when the server goes', async () => {
    const store = new DiagnosticsStore();
    const mark = { version: 1, seq: 0 };
    expect(await store.waitFresh(URI, mark, 10)).toBeNull();
    const abort = new AbortController();
    const aborted = store.waitFresh(URI, mark, 60_000, abort.signal);
    abort.abort();
    expect(await aborted).toBeNull();
    const cleared = store.waitFresh(URI, mark, 60_000);
    store.clear();
    expect(await cleared).toBeNull();
  });
});
