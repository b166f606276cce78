import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { HostError, toRpcError } from '../../../electron/host/rpc/host-error';
import {
  Router,
  type ClientContext,
  type HandlerMap,
  type Subscription,
  type TopicProvider,
} from '../../../electron/host/rpc/router';

// The one entry point both transports serve. What it guarantees: no handler sees a request that
// does not parse, only the protocol's own commands and topics are reachable (not Object's
// prototype), and every failure reaches the client as a code and a message naming the cause.

const client: ClientContext = { clientId: 'c1', transport: 'ws' };

afterEach(() => vi.restoreAllMocks());

function routerWith(
  handlers: Record<string, (req: unknown, c: ClientContext) => Promise<unknown>>,
  topics: Record<string, TopicProvider> = {},
) {
  return new Router(handlers as unknown as HandlerMap, topics);
}

describe('router: invoke', () => {
  it('hands the parsed request and the client to the handler and returns its value', async () => {
    const seen: unknown[] = [];
    const router = routerWith({
      'sessions.rename': async (req, c) => {
        seen.push(req, c);
        return { renamed: true };
      },
    });
    // The schema trims the title: the handler gets the parsed value, not the raw one.
    const r = await router.invoke('sessions.rename', { id: 's_1', title: '  New  ' }, client);
    expect(r).toEqual({ ok: true, value: { renamed: true } });
    expect(seen).toEqual([{ id: 's_1', title: 'New' }, client]);
  });

  it('absent params are an empty request, which a command without fields accepts', async () => {
    const router = routerWith({ 'sessions.list': async () => ({ sessions: [] }) });
    expect(await router.invoke('sessions.list', undefined, client)).toEqual({
      ok: true,
      value: { sessions: [] },
    });
    expect(await router.invoke('sessions.list', null, client)).toEqual({
      ok: true,
      value: { sessions: [] },
    });
  });

  it('a request that does not parse never reaches the handler; the error names the field', async () => {
    const handler = vi.fn(async () => ({}));
    const router = routerWith({ 'sessions.rename': handler });
    const r = await router.invoke('sessions.rename', { id: 's_1', title: 42 }, client);
    expect(handler).not.toHaveBeenCalled();
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid_params');
    expect(r.error.issues).toEqual([{ path: 'title', message: expect.any(String) }]);
    expect(r.error.message).toBe(`title: ${r.error.issues![0]!.message}`);
  });

  it("unknown methods, and names from Object's prototype, are unknown_method", async () => {
    const router = routerWith({});
    for (const method of ['nope', 'toString', 'constructor', '__proto__', 'hasOwnProperty'])
      expect(await router.invoke(method, {}, client)).toEqual({
        ok: false,
        error: { code: 'unknown_method', message: `unknown method '${method}'` },
      });
  });

  it('a HostError reaches the client as its code and message, without a log line', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = routerWith({
      'sessions.list': async () => {
        throw new HostError('no_session', 'no session s_9');
      },
    });
    expect(await router.invoke('sessions.list', {}, client)).toEqual({
      ok: false,
      error: { code: 'no_session', message: 'no session s_9' },
    });
    expect(log).not.toHaveBeenCalled();
  });

  it('any other failure is internal, with its message, and is logged with the method', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const boom = new Error('boom');
    const router = routerWith({
      'sessions.list': async () => {
        throw boom;
      },
    });
    expect(await router.invoke('sessions.list', {}, client)).toEqual({
      ok: false,
      error: { code: 'internal', message: 'boom' },
    });
    expect(log).toHaveBeenCalledWith('[rpc] sessions.list failed', boom);
  });
});

describe('router: subscribe', () => {
  const sub: Subscription = { dispose: () => {} };

  function recording() {
    const calls: { head: string; rest: string; cursor: number | undefined }[] = [];
    const provider =
      (head: string): TopicProvider =>
      async (rest, cursor, _sink, c) => {
        expect(c).toBe(client);
        calls.push({ head, rest, cursor });
        return sub;
      };
    const topics = Object.fromEntries(
      ['session', 'sessions', 'shell', 'projects'].map((h) => [h, provider(h)]),
    );
    return { calls, router: routerWith({}, topics) };
  }

  it('routes a topic to its provider by the part before the first colon', async () => {
    const { calls, router } = recording();
    expect(await router.subscribe('session:s_ab1', 7, () => {}, client)).toBe(sub);
    await router.subscribe('sessions', undefined, () => {}, client);
    await router.subscribe('shell:s_1:sh-2', 0, () => {}, client);
    expect(calls).toEqual([
      { head: 'session', rest: 's_ab1', cursor: 7 },
      { head: 'sessions', rest: '', cursor: undefined },
      { head: 'shell', rest: 's_1:sh-2', cursor: 0 },
    ]);
  });

  it('the sink the provider gets is the subscriber’s', async () => {
    const got: unknown[] = [];
    const router = routerWith(
      {},
      {
        sessions: async (_r, _c, sink) => {
          sink({ n: 1 });
          return sub;
        },
      },
    );
    await router.subscribe('sessions', undefined, (d) => got.push(d), client);
    expect(got).toEqual([{ n: 1 }]);
  });

  it('topics outside the pattern are refused before any provider runs, whole-string anchored', async () => {
    const { calls, router } = recording();
    for (const topic of ['sessions:x', 'xsessions', 'sessionsx', 'session:S_1', 'projects ', ''])
      await expect(router.subscribe(topic, undefined, () => {}, client)).rejects.toMatchObject({
        code: 'unknown_topic',
        message: `unknown topic '${topic}'`,
      });
    expect(calls).toEqual([]);
  });

  it('a topic the pattern allows but no provider serves is unknown_topic', async () => {
    const { router } = recording();
    await expect(router.subscribe('trust', undefined, () => {}, client)).rejects.toMatchObject({
      code: 'unknown_topic',
      message: "unknown topic 'trust'",
    });
  });
});

describe('errors as the client sees them', () => {
  it('a HostError is an Error named HostError carrying its code', () => {
    const e = new HostError('bad', 'msg');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('HostError');
    expect(String(e)).toBe('HostError: msg');
    expect(toRpcError(e)).toEqual({ code: 'bad', message: 'msg' });
  });

  it('a zod error lists every issue, a nested path dotted, a root one as (root)', () => {
    const nested = z
      .object({ a: z.object({ b: z.number() }), c: z.string() })
      .safeParse({ a: { b: 'x' }, c: 1 });
    const r = toRpcError(nested.error);
    expect(r.code).toBe('invalid_params');
    expect(r.issues!.map((i) => i.path)).toEqual(['a.b', 'c']);
    expect(r.message).toBe(r.issues!.map((i) => `${i.path}: ${i.message}`).join('; '));
    const root = toRpcError(z.string().safeParse(5).error);
    expect(root.issues).toEqual([{ path: '(root)', message: expect.any(String) }]);
    expect(root.message).toMatch(/^\(root\): ./);
  });

  it('a system error keeps its string code; a numeric code or a non-Error object is internal', () => {
    const enoent = Object.assign(new Error('no such file'), { code: 'ENOENT' });
    expect(toRpcError(enoent)).toEqual({ code: 'ENOENT', message: 'no such file' });
    const numeric = Object.assign(new Error('n'), { code: 5 });
    expect(toRpcError(numeric)).toEqual({ code: 'internal', message: 'n' });
    expect(toRpcError({ code: 'forged', message: 'x' })).toEqual({
      code: 'internal',
      message: '[object Object]',
    });
    expect(toRpcError(new Error('plain'))).toEqual({ code: 'internal', message: 'plain' });
  });

  it('thrown non-errors become text, null and undefined included', () => {
    expect(toRpcError('just text')).toEqual({ code: 'internal', message: 'just text' });
    expect(toRpcError(null)).toEqual({ code: 'internal', message: 'null' });
    expect(toRpcError(undefined)).toEqual({ code: 'internal', message: 'undefined' });
    expect(toRpcError(0)).toEqual({ code: 'internal', message: '0' });
  });
});
