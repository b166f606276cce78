import { describe, expect, it } from 'vitest';
import { listenForRedirect } from '../../../electron/host/mcp/oauth/loopback-redirect';

// The sign-in's loopback listener on a real socket: one request, its state checked, then closed.

const get = (url: string) =>
  fetch(url).then(async (r) => ({ status: r.status, body: await r.text() }));

describe('the loopback redirect listener', () => {
  it('takes the code from a redirect with the right state, answers the browser and closes', async () => {
    const l = await listenForRedirect({ state: 'st-1', port: 0, serverName: 'docs' });
    expect(l.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const page = await get(`${l.redirectUrl}?code=abc&state=st-1`);
    expect(page).toMatchObject({
      status: 200,
      body: expect.stringContaining('Signed in to MCP server docs'),
    });
    expect(await l.code).toBe('abc');
    await expect(fetch(`${l.redirectUrl}?code=again&state=st-1`)).rejects.toThrow();
  });

  it('refuses a redirect with another state: nothing accepted, and no second try is listened for', async () => {
    const l = await listenForRedirect({ state: 'st-1', port: 0, serverName: 'docs' });
    expect((await get(`${l.redirectUrl}?code=planted&state=guess`)).status).toBe(400);
    await expect(l.code).rejects.toThrow(/wrong state/);
    await expect(fetch(`${l.redirectUrl}?code=abc&state=st-1`)).rejects.toThrow();
  });

  it("passes on the authorization server's refusal in words", async () => {
    const l = await listenForRedirect({ state: 's', port: 0, serverName: 'docs' });
    await get(`${l.redirectUrl}?error=access_denied&error_description=user+said+no&state=s`);
    await expect(l.code).rejects.toThrow(
      'the authorization server refused: access_denied (user said no)',
    );
  });

  it('escapes what it echoes into the page', async () => {
    const l = await listenForRedirect({ state: 's', port: 0, serverName: '<img src=x>' });
    const page = await get(`${l.redirectUrl}?code=c&state=s`);
    expect(page.body).not.toContain('<img');
    await l.code;
  });

  it('listens on a free port when the one asked for is taken', async () => {
    const first = await listenForRedirect({ state: 's', port: 0, serverName: 'a' });
    const port = Number(new URL(first.redirectUrl).port);
    const second = await listenForRedirect({ state: 's', port, serverName: 'b' });
    expect(second.redirectUrl).not.toBe(first.redirectUrl);
    first.dispose();
    second.dispose();
    await expect(first.code).rejects.toThrow('cancelled');
  });
});
