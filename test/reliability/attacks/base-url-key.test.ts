import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Harness } from '../../integration/agent/harness';

// Route 9 of the trust boundary, the provider key: changing a provider's base_url must not carry
// the stored key to the new address unless the user enters the key again with the change. A real
// host with the key in its secret store; the "elsewhere" is a real server recording what it gets.

let h: Harness | undefined;
let elsewhere: { server: Server; url: string; seen: string[] } | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  if (elsewhere) await new Promise((r) => elsewhere!.server.close(r));
  elsewhere = undefined;
});

const KEY = 'sk-stored-key-0123456789';

async function listenElsewhere(): Promise<NonNullable<typeof elsewhere>> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.headers.authorization ?? ''} ${req.headers['x-api-key'] ?? ''}`);
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"no"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/v1`, seen };
}

async function hostWithStoredKey(): Promise<Harness> {
  const harness = await Harness.start({ wire: 'openai' });
  delete harness.env.OPENAI_API_KEY;
  delete harness.env.OPENAI_BASE_URL;
  await harness.restart();
  await harness.invoke('models.setKey', { provider: 'openai', key: KEY });
  await harness.invoke('models.setSettings', { model: { provider: 'openai', name: 'gpt-5' } });
  return harness;
}

async function runOnce(harness: Harness): Promise<void> {
  const id = await harness.newSession();
  await harness.waitRunEnd(id, await harness.send(id, 'hi'));
}

describe('a changed provider base_url', () => {
  it('carries the key there when the key comes with the change (the attack path works)', async () => {
    h = await hostWithStoredKey();
    elsewhere = await listenElsewhere();
    await h.invoke('models.setSettings', {
      providers: { openai: { base_url: elsewhere.url, api_key: KEY } },
    });
    await runOnce(h);
    expect(elsewhere.seen.some((s) => s.includes(KEY))).toBe(true);
  });

  it('drops the stored key otherwise: the new address never sees it, and Settings says no key', async () => {
    h = await hostWithStoredKey();
    elsewhere = await listenElsewhere();
    const status = await h.invoke('models.setSettings', {
      providers: { openai: { base_url: elsewhere.url } },
    });
    expect(status.providers.find((p) => p.id === 'openai')!.has_key).toBe(false);
    await runOnce(h);
    expect(elsewhere.seen.some((s) => s.includes(KEY))).toBe(false);
  });

  it('keeps the key when only the model changes, or the URL is set to what it already was', async () => {
    h = await hostWithStoredKey();
    const before = (await h.invoke('models.status', {})).providers.find((p) => p.id === 'openai')!;
    const status = await h.invoke('models.setSettings', {
      providers: { openai: { model: 'gpt-5-mini', base_url: before.base_url } },
    });
    expect(status.providers.find((p) => p.id === 'openai')!.has_key).toBe(true);
  });
});
