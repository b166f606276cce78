import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../../shared/protocol/commands';
import { Harness, ofType } from '../../integration/agent/harness';
import {
  documentedApprovalHash,
  ReferenceClient,
  type Frame,
} from '../../helpers/reference-remote-client';
import { waitingShellApproval } from '../../helpers/waiting-approval';

// Route 11 of the trust boundary, extended to the remote frames (#21.6): a paired phone with
// remote rights reaches sessions, waiting items, decisions, answers, the newest messages and a
// short message, and nothing else. Each attack is made for real over the pinned-TLS socket of a
// real host, and each first shows the same act succeeding through the path that is allowed to do
// it (the desktop's own commands), so a refusal cannot pass because the act was impossible anyway.

let h: Harness | undefined;
const clients: ReferenceClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  await h?.close();
  h = undefined;
});

async function start(files: Record<string, string> = {}) {
  h = await Harness.start({
    wire: 'openai',
    files,
    config: { permission_mode: 'ask', devices: { host: '127.0.0.1' } },
  });
  const offer = await h.invoke('devices.createOffer', { remote: true });
  const phone = await ReferenceClient.connect(offer.url, offer.fingerprint);
  clients.push(phone);
  const paired = await phone.pair(offer.code, 'Attacker phone');
  expect(paired.rights).toMatchObject({ remote: true });
  return { harness: h, phone, paired, offer };
}

const configFile = (harness: Harness) => join(harness.home, 'configs', 'app.json');

describe('remote frames: nothing but what PROTOCOL.md lists', () => {
  it('every desktop command sent as a frame (shells, files, settings, rules, projects, sessions) is refused and changes nothing', async () => {
    const { harness, phone, paired, offer } = await start();
    const id = await harness.newSession();
    const configBefore = readFileSync(configFile(harness), 'utf8');
    // The desktop's own path does it: the act is possible, just not from the phone.
    await harness.invoke('sessions.rename', { id, title: 'renamed on the desktop' });
    expect((await harness.invoke('sessions.list', {})).sessions[0]!.title).toBe(
      'renamed on the desktop',
    );

    const names = Object.keys(commands);
    expect(names).toEqual(
      expect.arrayContaining([
        'shells.input',
        'settings.update',
        'rules.remove',
        'sessions.delete',
      ]),
    );
    const attempts: object[] = [];
    for (const method of names) {
      const params = { id, title: 'pwned', session_id: id, path: '/etc/passwd', text: 'pwned' };
      attempts.push({ type: method, ...params });
      attempts.push({ jsonrpc: '2.0', id: 1, method, params });
    }
    for (const type of [
      'remote_read_file',
      'remote_shell',
      'remote_shell_input',
      'remote_settings',
      'remote_rules',
      'remote_stop',
      'remote_delete',
      'remote_plan',
      'remote_project',
    ])
      attempts.push({ type, v: 1, req_id: 'x', session_id: id, path: '/etc/passwd' });

    let socket = phone;
    let refusals = 0;
    for (const frame of attempts) {
      if (refusals > 0 && refusals % 5 === 0) {
        // Five malformed frames close a socket (1008); the attacker reconnects with its token.
        expect((await socket.closed).code).toBe(1008);
        socket = await ReferenceClient.connect(offer.url, offer.fingerprint);
        clients.push(socket);
        await socket.hello(paired.device_id as string, paired.token as string);
      }
      socket.send(frame);
      const reply = await socket.next((f) => f.type === 'error' || f.type === 'remote_error');
      expect(reply.code, JSON.stringify(frame)).toBe('bad_frame');
      expect(String(reply.message)).toMatch(/unknown frame type/);
      refusals++;
    }
    expect(refusals).toBe(attempts.length);
    // Nothing moved: the session, the config file, and no shell exists.
    const list = (await harness.invoke('sessions.list', {})).sessions;
    expect(list.map((s) => [s.id, s.title])).toEqual([[id, 'renamed on the desktop']]);
    expect(readFileSync(configFile(harness), 'utf8')).toBe(configBefore);
    expect((await harness.invoke('shells.list', { session_id: id })).shells).toEqual([]);
  });

  it('"Always allow" cannot come from a phone: the decision is for this call only and no rule is written', async () => {
    const { harness, phone } = await start();
    // Control: the desktop's always-allow writes a user rule.
    const control = await waitingShellApproval(harness, 'echo control');
    await harness.invoke('agent.decideApproval', {
      id: control.id,
      approval_id: control.request.approval_id,
      decision: 'allow',
      always: 'user',
    });
    await harness.waitRunEnd(control.id, control.from);
    const withRule = readFileSync(configFile(harness), 'utf8');
    expect(withRule).toContain('aider_shell_tool(echo control:*)');

    const { id, from, request: req } = await waitingShellApproval(harness, 'echo phone');
    const item = ((await phone.request('remote_pending')).items as Frame[]).find(
      (i) => i.approval_id === req.approval_id,
    )!;
    const reply = await phone.request('remote_decide', {
      session_id: id,
      approval_id: item.approval_id,
      hash: item.hash,
      decision: 'allow',
      always: 'user',
      scope: 'user',
    });
    expect(reply.type).toBe('remote_done');
    const events = await harness.waitRunEnd(id, from);
    const decision = ofType(events, 'approval_decision')[0]!;
    expect(decision.always).toBeUndefined();
    expect(decision.via?.device_name).toBe('Attacker phone');
    expect(readFileSync(configFile(harness), 'utf8')).toBe(withRule);
    expect(withRule).not.toContain('echo phone');
  });

  it('a read gives messages, never tool output: a file the agent read does not reach the phone', async () => {
    const { harness, phone } = await start({ 'secret.txt': 'SECRET-TOKEN-4242\n' });
    harness.script.push(
      { toolCalls: [{ name: 'read_file', args: { path: 'secret.txt' } }] },
      { text: 'I read the file.' },
    );
    const id = await harness.newSession();
    const from = await harness.send(id, 'read secret.txt');
    const events = await harness.waitRunEnd(id, from);
    // Control: the desktop's log holds the content (the agent did read it).
    expect(JSON.stringify(ofType(events, 'tool_result'))).toContain('SECRET-TOKEN-4242');
    const read = await phone.request('remote_read', { session_id: id, limit: 50 });
    expect(read.type).toBe('remote_conversation');
    expect((read.items as Frame[]).map((i) => i.role)).toEqual(['user', 'tool', 'assistant']);
    expect(JSON.stringify(read)).not.toContain('SECRET-TOKEN-4242');
  });

  it('ids that are paths or another session do not reach anything', async () => {
    const { harness, phone } = await start();
    const { id, request: req } = await waitingShellApproval(harness, 'echo target');
    const other = await harness.newSession();
    for (const session_id of ['../configs', '../../state/devices', '/etc', 's_../../x', '.']) {
      const r = await phone.request('remote_read', { session_id });
      expect(r, session_id).toMatchObject({ type: 'remote_error', code: 'not_found' });
    }
    // The right approval and hash, sent under another session's id, decides nothing.
    const item = ((await phone.request('remote_pending')).items as Frame[])[0]!;
    const wrong = await phone.request('remote_decide', {
      session_id: other,
      approval_id: item.approval_id,
      hash: item.hash,
      decision: 'allow',
    });
    expect(wrong).toMatchObject({ type: 'remote_error', code: 'not_found' });
    // And a hash over the same content claimed for another session is stale.
    const forged = documentedApprovalHash({
      ...(item as unknown as Parameters<typeof documentedApprovalHash>[0]),
      session_id: other,
    });
    expect(
      await phone.request('remote_decide', {
        session_id: id,
        approval_id: item.approval_id,
        hash: forged,
        decision: 'allow',
      }),
    ).toMatchObject({ code: 'stale' });
    expect(ofType(await harness.events(id), 'approval_decision')).toEqual([]);
    expect(req.approval_id).toBe(item.approval_id);
  });

  it('a decision captured from a phone replays from no other socket: before hello, without the right, or after revoke', async () => {
    const { harness, phone, paired, offer } = await start();
    const { id, request: req } = await waitingShellApproval(harness, 'echo replay');
    const item = ((await phone.request('remote_pending')).items as Frame[])[0]!;
    const frame = {
      type: 'remote_decide',
      v: 1,
      req_id: 'captured',
      session_id: id,
      approval_id: req.approval_id,
      hash: item.hash,
      decision: 'allow',
    };
    // Before hello: nothing but pair or hello is read.
    const anon = await ReferenceClient.connect(offer.url, offer.fingerprint);
    clients.push(anon);
    anon.send(frame);
    expect(await anon.next((f) => f.type === 'error')).toMatchObject({
      code: 'not_authenticated',
    });
    // A second phone, paired without the right.
    const plainOffer = await harness.invoke('devices.createOffer', {});
    const plain = await ReferenceClient.connect(plainOffer.url, plainOffer.fingerprint);
    clients.push(plain);
    await plain.pair(plainOffer.code, 'Plain phone');
    plain.send(frame);
    expect(await plain.next((f) => f.req_id === 'captured')).toMatchObject({
      code: 'no_remote_rights',
    });
    // The device revoked: its token no longer opens a socket.
    await harness.invoke('devices.revoke', { device_id: paired.device_id as string });
    expect((await phone.closed).code).toBe(4003);
    const back = await ReferenceClient.connect(offer.url, offer.fingerprint);
    clients.push(back);
    expect(await back.hello(paired.device_id as string, paired.token as string)).toMatchObject({
      type: 'error',
      code: 'bad_token',
    });
    expect(ofType(await harness.events(id), 'approval_decision')).toEqual([]);
  });

  it('the listener serves no desktop API over HTTPS', async () => {
    const { harness } = await start();
    const offer = await harness.invoke('devices.createOffer', {});
    const base = new URL(offer.url);
    for (const path of [
      '/rpc',
      '/api/sessions',
      '/ws/../rpc',
      '/configs/app.json',
      '/state/devices.json',
    ]) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: base.hostname,
            port: base.port,
            path,
            method: path === '/rpc' ? 'POST' : 'GET',
            rejectUnauthorized: false,
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(path === '/rpc' ? JSON.stringify({ method: 'settings.get', params: {} }) : '');
      });
      expect(status, path).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('a right taken away while a request is in flight', () => {
  it('holds at the moment of acting, after the log was read, not only for the next frame', async () => {
    const { SessionsRemoteBackend } = await import('../../../electron/host/devices/remote-backend');
    const { harness, phone } = await start();
    const { id, from, request: req } = await waitingShellApproval(harness, 'echo in-flight');
    const item = ((await phone.request('remote_pending')).items as Frame[])[0]!;
    const backend = new SessionsRemoteBackend({
      sessions: harness.host.sessions,
      decisions: harness.host.agent.decisions,
      send: () => Promise.reject(new Error('not used')),
    });
    try {
      const via = { device_id: 'dev_x', device_name: 'Attacker phone' };
      const decision = {
        session_id: id,
        approval_id: req.approval_id,
        hash: item.hash as string,
        decision: 'allow' as const,
      };
      // The right is read after the session and its approval were looked up: revoked by then.
      let asked = 0;
      await expect(backend.decide(decision, via, () => (asked++, false))).rejects.toMatchObject({
        code: 'no_remote_rights',
      });
      expect(asked).toBe(1);
      await expect(backend.message(id, 'hello', via, () => false)).rejects.toMatchObject({
        code: 'no_remote_rights',
      });
      expect(ofType(await harness.events(id), 'approval_decision')).toEqual([]);
      // Control: the same call with the right still held decides.
      await backend.decide(decision, via, () => true);
      const events = await harness.waitRunEnd(id, from);
      expect(ofType(events, 'approval_decision')[0]).toMatchObject({ decision: 'allow' });
    } finally {
      backend.dispose();
    }
  });
});
