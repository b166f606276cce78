import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../shared/protocol/events';
import { abi, networkGap } from '../../reliability/attacks/attack-world';
import { localName, startChildHttpOrigin } from '../../helpers/net-fixtures';
import { Harness, ofType } from '../agent/harness';
import { ReferenceClient, type Frame } from '../../helpers/reference-remote-client';

// A confined shell's first connection to a new name, through the host as a client drives it, with
// the real launcher, the session's real egress proxy and the system's resolver: in ask mode it is
// an approval like any other (its request in the log, the session `waiting`, decided with
// agent.decideApproval; "Always allow" writes Network(name) through the rules service), and the
// connection waits for it; in auto mode and in a headless run the name is refused without asking
// and the shell's result says which and how to allow it. The destination is this machine's host
// name (resolved from /etc/hosts to a loopback address) and a server in a process of its own,
// whose port the user listed in sandbox.network.local_ports: no allowlist names it, so only the
// policy's ask stands between the shell and it.

const local = await localName();

let h: Harness | undefined;
let origin: Awaited<ReturnType<typeof startChildHttpOrigin>> | undefined;
let phone: ReferenceClient | undefined;
afterEach(async () => {
  await phone?.close().catch(() => undefined);
  phone = undefined;
  await h?.close();
  origin?.close();
  h = undefined;
  origin = undefined;
});

async function start(config: Record<string, unknown> = {}) {
  origin = await startChildHttpOrigin(local!.address);
  h = await Harness.start({
    wire: 'openai',
    config: { sandbox: { network: { local_ports: [origin.port] } }, ...config },
  });
  return { name: local!.name, port: origin.port };
}

const curl = (url: string) => ({
  name: 'aider_shell_tool',
  args: { command: `curl -sS ${url}` },
});

/** The first approval request of `tool` logged after `after` (replayed logs arrive one by one). */
const requestAfter = (ev: SessionEvent[], tool: string, after: number) =>
  ofType(ev, 'approval_request').find((r) => r.tool === tool && r.seq > after);

/** Waits for the next approval of `tool` after seq `after`; returns its request. */
async function nextApproval(id: string, tool: string, after = 0) {
  const seen = await h!.waitFor(
    id,
    (ev) => !!requestAfter(ev, tool, after),
    `an approval of ${tool}`,
    30_000,
  );
  return requestAfter(seen, tool, after)!;
}

async function approveNext(id: string, tool: string, after = 0) {
  const request = await nextApproval(id, tool, after);
  await h!.invoke('agent.decideApproval', {
    id,
    approval_id: request.approval_id,
    decision: 'allow',
  });
  return request;
}

/**
 * A run whose background shell's connection asks while the run's next call waits on its own
 * approval (so the card comes during the run); the model's turn ends once that call is approved.
 */
async function heldInBackground(name: string, port: number) {
  h!.script.push(
    {
      toolCalls: [
        {
          name: 'aider_shell_tool',
          args: { command: `curl -sS http://${name}:${port}/held`, run_in_background: true },
        },
      ],
    },
    // The next call waits on its own approval while the background connection asks.
    { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'echo next' } }] },
    { text: 'Left it running.' },
  );
  const id = await h!.newSession();
  const from = await h!.send(id, 'fetch it in the background');
  const background = await approveNext(id, 'aider_shell_tool');
  const net = await nextApproval(id, 'Network', background.seq);
  return { id, from, background, net };
}

describe.runIf(abi >= 4 && networkGap === null && local !== null)(
  'network approvals through the host',
  () => {
    it('ask mode: the first connection to a new name waits on an approval (the session waiting, nothing sent); "always for this project" writes Network(name) and the next connection is not asked', async () => {
      const { name, port } = await start();
      await h!.invoke('trust.grant', { path: h!.project });
      h!.script.push(
        { toolCalls: [curl(`http://${name}:${port}/first`)] },
        { toolCalls: [curl(`http://${name}:${port}/second`)] },
        { text: 'Fetched both.' },
      );
      const id = await h!.newSession();
      const from = await h!.send(id, 'fetch it');
      const shell = await approveNext(id, 'aider_shell_tool');
      const net = await nextApproval(id, 'Network', shell.seq);
      expect(net).toMatchObject({
        summary: `connect to ${name}:${port}`,
        suggested_rule: `Network(${name})`,
      });
      expect(net.detail).toMatch(/^shell \S+ wants to connect to /);
      // Held: the session shows it waits on the user, and the origin has seen nothing yet.
      await h!.waitFor(
        id,
        (ev) => ev.some((e) => e.type === 'run_state' && e.state === 'waiting' && e.seq > net.seq),
        'the session waiting',
      );
      expect(origin!.seen).toEqual([]);
      await h!.invoke('agent.decideApproval', {
        id,
        approval_id: net.approval_id,
        decision: 'allow',
        always: 'project',
      });
      await approveNext(id, 'aider_shell_tool', net.seq);
      const events = await h!.waitRunEnd(id, from, 60_000);
      const [first, second] = ofType(events, 'tool_result');
      expect(first!.payload).toMatchObject({
        stdout: expect.stringContaining(`origin saw GET /first host=${name}`),
      });
      expect(second!.payload).toMatchObject({
        stdout: expect.stringContaining(`origin saw GET /second host=${name}`),
      });
      // One network approval only: the rule written by "always" let the second connection through.
      expect(ofType(events, 'approval_request').filter((r) => r.tool === 'Network')).toHaveLength(
        1,
      );
      expect(
        ofType(events, 'approval_decision').find((d) => d.approval_id === net.approval_id),
      ).toMatchObject({
        decision: 'allow',
        by: 'user',
        always: { rule: `Network(${name})`, scope: 'project' },
      });
      const settings = JSON.parse(
        readFileSync(join(h!.project, '.mewbo', 'settings.json'), 'utf8'),
      );
      expect(settings.permissions.allow).toContain(`Network(${name})`);
      expect(origin!.seen).toEqual(['/first', '/second']);
    });

    it('ask mode: a denied connection gets the 403 with the reason, the result lists it, and nothing reaches the server', async () => {
      const { name, port } = await start();
      h!.script.push({ toolCalls: [curl(`http://${name}:${port}/x`)] }, { text: 'Blocked.' });
      const id = await h!.newSession();
      const from = await h!.send(id, 'fetch it');
      await approveNext(id, 'aider_shell_tool');
      const request = await nextApproval(id, 'Network');
      await h!.invoke('agent.decideApproval', {
        id,
        approval_id: request.approval_id,
        decision: 'deny',
        reason: 'not that one',
      });
      const events = await h!.waitRunEnd(id, from, 60_000);
      const result = ofType(events, 'tool_result')[0]!.payload as unknown as {
        stdout: string;
        network_refused: string[];
      };
      expect(result.stdout).toContain('the user denied it: not that one');
      expect(result.network_refused).toEqual([
        expect.stringContaining(
          `connection to ${name}:${port} refused: the user denied it: not that one.`,
        ),
      ]);
      expect(origin!.seen).toEqual([]);
    });

    it('auto mode: an unlisted name is refused without asking, and the shell result says which and how to allow it', async () => {
      const { name, port } = await start({ permission_mode: 'auto' });
      h!.script.push(
        {
          toolCalls: [
            {
              name: 'aider_shell_tool',
              args: { command: `curl -sf -o /dev/null http://${name}:${port}/; echo "exit $?"` },
            },
          ],
        },
        { text: 'Refused.' },
      );
      const id = await h!.newSession();
      const events = await h!.waitRunEnd(id, await h!.send(id, 'fetch it'), 60_000);
      expect(ofType(events, 'approval_request')).toHaveLength(0);
      const result = ofType(events, 'tool_result')[0]!.payload as unknown as {
        stdout: string;
        network_refused: string[];
      };
      expect(result.stdout).toBe('exit 22\n');
      expect(result.network_refused).toEqual([
        `connection to ${name}:${port} refused: ${name} is not allowed and auto mode does not ask. To allow it, add "Network(${name})" to permissions.allow (configs/app.json, or the project's .mewbo/settings.json) or "${name}" to sandbox.network.allow in configs/app.json.`,
      ]);
      expect(origin!.seen).toEqual([]);
    });

    it('a connection still held when the run ends keeps the session waiting for the user (the sidebar and the phone list it), and its card is answered after the run', async () => {
      const { name, port } = await start({ devices: { host: '127.0.0.1' } });
      const offer = await h!.invoke('devices.createOffer', { remote: true });
      phone = await ReferenceClient.connect(offer.url, offer.fingerprint);
      expect((await phone.pair(offer.code, 'Phone')).type).toBe('paired');
      const { id, from, background, net } = await heldInBackground(name, port);
      await approveNext(id, 'aider_shell_tool', background.seq);
      const ended = await h!.waitRunEnd(id, from, 60_000);
      const end = ended.find((e) => e.type === 'run_state' && e.seq >= from && e.state === 'idle')!;
      // The model's turn is over; the connection still waits: the session waits for the user.
      const waitingAfter = (e: SessionEvent) =>
        e.type === 'run_state' && e.seq > end.seq && e.state === 'waiting';
      const waiting = (
        await h!.waitFor(id, (ev) => ev.some(waitingAfter), 'the session waiting after the run')
      ).find(waitingAfter)!;
      const summary = (await h!.invoke('sessions.list', {})).sessions.find((s) => s.id === id);
      expect(summary).toMatchObject({ run_state: 'waiting' });
      expect((await phone.request('remote_sessions')).sessions).toEqual([
        expect.objectContaining({ session_id: id, state: 'waiting', waiting: 1 }),
      ]);
      const items = (await phone.request('remote_pending')).items as Frame[];
      expect(items).toEqual([
        expect.objectContaining({ session_id: id, approval_id: net.approval_id, tool: 'Network' }),
      ]);
      expect(origin!.seen).toEqual([]);

      // Approved from the phone: the held connection goes through, the session is idle again and
      // no model turn is started for it.
      const requests = h!.script.requests.length;
      expect(
        await phone.request('remote_decide', {
          session_id: id,
          approval_id: net.approval_id,
          hash: items[0]!.hash,
          decision: 'allow',
        }),
      ).toMatchObject({ type: 'remote_done' });
      const after = await h!.waitFor(
        id,
        (ev) => ev.some((e) => e.type === 'run_state' && e.seq > waiting.seq && e.state === 'idle'),
        'the session idle after the decision',
      );
      expect(
        ofType(after, 'approval_decision').find((d) => d.approval_id === net.approval_id),
      ).toMatchObject({ decision: 'allow', by: 'user', via: { device_name: 'Phone' } });
      await expect.poll(() => origin!.seen, { timeout: 30_000 }).toEqual(['/held']);
      expect(ofType(after, 'run_state').filter((e) => e.seq > end.seq)).toEqual([
        expect.objectContaining({ state: 'waiting' }),
        expect.objectContaining({ state: 'idle' }),
      ]);
      expect(h!.script.requests.length).toBe(requests);
      expect((await phone.request('remote_sessions')).sessions).toEqual([
        expect.objectContaining({ session_id: id, state: 'done', waiting: 0 }),
      ]);
    });

    it('a stop during the run refuses the connection held for a decision: the session ends stopped, not waiting', async () => {
      const { name, port } = await start();
      const { id, from, net } = await heldInBackground(name, port);
      await h!.invoke('sessions.stop', { id });
      const events = await h!.waitRunEnd(id, from, 60_000);
      expect(
        ofType(events, 'approval_decision').find((d) => d.approval_id === net.approval_id),
      ).toMatchObject({ decision: 'deny', by: 'policy', reason: 'the run was stopped' });
      expect(ofType(await h!.events(id), 'run_state').at(-1)).toMatchObject({ state: 'stopped' });
      expect(origin!.seen).toEqual([]);
    });

    it('a connection that gives up while it waits closes its approval in the log, and a late Approve is refused', async () => {
      const { name, port } = await start();
      h!.script.push(
        {
          toolCalls: [
            {
              name: 'aider_shell_tool',
              args: {
                command: `curl -sS --max-time 3 http://${name}:${port}/late; echo "exit $?"`,
              },
            },
          ],
        },
        { text: 'Gave up.' },
      );
      const id = await h!.newSession();
      const from = await h!.send(id, 'fetch it');
      await approveNext(id, 'aider_shell_tool');
      const request = await nextApproval(id, 'Network');
      const events = await h!.waitRunEnd(id, from, 60_000);
      expect(ofType(events, 'tool_result')[0]!.payload).toMatchObject({
        stdout: expect.stringContaining('exit 28'),
      });
      expect(
        ofType(events, 'approval_decision').find((d) => d.approval_id === request.approval_id),
      ).toMatchObject({
        decision: 'deny',
        by: 'policy',
        reason: 'the connection closed before anyone decided',
      });
      const late = await h!.invokeError('agent.decideApproval', {
        id,
        approval_id: request.approval_id,
        decision: 'allow',
      });
      expect(late.code).toBe('already_decided');
      expect(origin!.seen).toEqual([]);
    });
  },
);
