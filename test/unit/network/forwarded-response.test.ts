import { once } from 'node:events';
import {
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, createServer as createTcpServer, Socket, type AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_HEADER_BYTES } from '../../../electron/host/network/constants';
import {
  ForwardedResponse,
  parseResponseHead,
} from '../../../electron/host/network/forwarded-response';

// The strict reader of a destination's answer to a forwarded request, driven directly: the
// destination's bytes are handed to read() as node's onread would (copied into the answer's own
// buffer, split where the test says), and what the client gets is read by node's HTTP client from
// a real loopback server whose response the ForwardedResponse writes. No proxy, no curl: the
// proxy's integration tests cover the wiring, these the reader, fast enough for every mutant.

let server: Server;
let port = 0;
const handlers = new Map<string, (res: ServerResponse) => Promise<void>>();
let nextId = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.sendDate = false;
    void handlers.get(req.url ?? '')!(res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** What the client got, and what the reader called a failure. */
interface Seen {
  status: number;
  reason: string;
  /** Header name, value pairs as received, without those node's server adds itself. */
  headers: string[][];
  body: string;
  /** The client read a whole answer (false: its connection was cut). */
  complete: boolean;
  failed: string[];
}

/** Headers node's server adds to every answer to a client that sent Connection: close. */
const nodeAdded = (name: string, value: string) =>
  (name === 'Connection' && value === 'close') ||
  (name === 'Transfer-Encoding' && value === 'chunked');

/**
 * The destination answers `pieces`, one read each, then closes; the failure path is the proxy's
 * own (a 502 with the reason before the head was sent, the client's connection cut after).
 */
async function forward(pieces: string[], method = 'GET'): Promise<Seen> {
  const id = `/${nextId++}`;
  const failed: string[] = [];
  handlers.set(id, async (res) => {
    const answer = new ForwardedResponse(res, method, (message) => {
      failed.push(message);
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, 'Bad Gateway');
      res.end(message);
    });
    const from = new Socket();
    answer.from = from;
    for (const piece of pieces) {
      const n = answer.buffer.write(piece, 'latin1');
      // What lies past n is an earlier read's: line ends and blank lines, to be never read.
      answer.buffer.fill('\r\n', n, n + 2 * MAX_HEADER_BYTES, 'latin1');
      from.pause();
      if (answer.read(n, answer.buffer)) continue;
      // The proxy closes the destination's socket once the answer ended or failed.
      if (failed.length || res.writableEnded) break;
      await once(from, 'resume');
    }
    // The proxy's failure destroys the destination's socket: no end follows it.
    if (!failed.length) answer.ended();
    from.destroy();
  });
  try {
    return await new Promise<Seen>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port,
        path: id,
        method,
        agent: false,
        maxHeaderSize: 4 * MAX_HEADER_BYTES,
      });
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', () => {});
        res.on('close', () => {
          const headers: string[][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const [name, value] = [res.rawHeaders[i]!, res.rawHeaders[i + 1]!];
            if (!nodeAdded(name, value)) headers.push([name, value]);
          }
          resolve({
            status: res.statusCode!,
            reason: res.statusMessage!,
            headers,
            body: Buffer.concat(chunks).toString('latin1'),
            complete: res.complete,
            failed,
          });
        });
      });
      req.on('error', () =>
        resolve({ status: 0, reason: '', headers: [], body: '', complete: false, failed }),
      );
      req.end();
    });
  } finally {
    handlers.delete(id);
  }
}

/** `text` cut in two at every position. */
const halves = (text: string) =>
  Array.from({ length: text.length - 1 }, (_, i) => [text.slice(0, i + 1), text.slice(i + 1)]);
/** `text` one byte a read. */
const bytes = (text: string) => [...text];

const head = (text: string, method = 'GET') => parseResponseHead(text, method);
const framing = (text: string, method = 'GET') => {
  const h = head(text, method);
  return typeof h === 'string' ? h : h.framing;
};

describe('the status line', () => {
  test.each([
    ['HTTP/1.1 200 OK', 200, 'OK'],
    ['HTTP/1.0 404 Not Found', 404, 'Not Found'],
    ['HTTP/1.1 503', 503, ''],
    ['HTTP/1.1 200 ', 200, ''],
    ['HTTP/1.1 299 a:b\tc', 299, 'a:b\tc'],
  ])('%j is status %i, reason %j', (line, status, reason) => {
    expect(head(line)).toMatchObject({ status, reason, headers: [] });
  });

  test.each([
    'HTTP/1.2 200 OK',
    'HTTP/2 200 OK',
    'HTTP/1x1 200 OK',
    'http/1.1 200 OK',
    ' HTTP/1.1 200 OK',
    'XHTTP/1.1 200 OK',
    'HTTP/1.1 20 OK',
    'HTTP/1.1 2000 OK',
    'HTTP/1.1 200OK',
    'HTTP/1.1  200 OK',
    'HTTP/1.1 2x0 OK',
    'HTTP/1.1 200 OK\n',
    'HTTP/1.1 200 O\rK',
    '',
  ])('%j is refused', (line) => {
    expect(head(`${line}\r\nX-A: 1`)).toBe(
      `the destination's status line "${line}" is not HTTP/1.x`,
    );
  });

  test('a refused status line is quoted up to 100 characters', () => {
    const line = `HTTP/9 ${'x'.repeat(200)}`;
    expect(head(line)).toBe(
      `the destination's status line "${line.slice(0, 100)}" is not HTTP/1.x`,
    );
  });
});

describe('headers', () => {
  test('names and values as received, values trimmed, repeated headers kept in order', () => {
    const h = head(
      [
        'HTTP/1.1 200 OK',
        "X-Ok!#$%&'*+.^_`|~09: v",
        'Set-Cookie: a=1',
        'set-cookie:b=2',
        'X-Empty:',
        'X-Pad: \t padded value \t',
        'X-Colon: a: b',
      ].join('\r\n'),
    );
    expect(typeof h === 'string' ? h : h.headers).toEqual([
      ["X-Ok!#$%&'*+.^_`|~09", 'v'],
      ['Set-Cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['X-Empty', ''],
      ['X-Pad', 'padded value'],
      ['X-Colon', 'a: b'],
    ]);
  });

  test.each([
    ['Bad Name: x'],
    ['X(: x'],
    [': x'],
    ['NoColon'],
    [' folded: continuation'],
    ['\tfolded'],
    [''],
  ])('%j is a malformed header line', (line) => {
    expect(head(`HTTP/1.1 200 OK\r\nX-A: 1\r\n${line}`)).toBe(
      `the destination sent a malformed header line "${line}"`,
    );
  });

  test('a malformed header line is quoted up to 100 characters', () => {
    const line = `X Y${'z'.repeat(200)}`;
    expect(head(`HTTP/1.1 200 OK\r\n${line}`)).toBe(
      `the destination sent a malformed header line "${line.slice(0, 100)}"`,
    );
  });

  test('hop-by-hop headers, in any case, are not passed on', () => {
    const hop = [
      'Connection: close',
      'KEEP-ALIVE: timeout=5',
      'Proxy-Connection: x',
      'proxy-authenticate: Basic',
      'TE: trailers',
      'Trailer: X-T',
      'Transfer-Encoding: chunked',
      'Upgrade: websocket',
    ];
    const h = head(['HTTP/1.1 200 OK', 'X-Before: 1', ...hop, 'X-After: 2'].join('\r\n'));
    expect(typeof h === 'string' ? h : h.headers).toEqual([
      ['X-Before', '1'],
      ['X-After', '2'],
    ]);
  });

  test('headers Connection names are not passed on, whatever their case or spacing', () => {
    const h = head(
      [
        'HTTP/1.1 200 OK',
        'X-Secret: 1',
        'Connection: close , x-secret,X-OTHER',
        'x-other: 2',
        'X-Kept: 3',
      ].join('\r\n'),
    );
    expect(typeof h === 'string' ? h : h.headers).toEqual([['X-Kept', '3']]);
  });

  test('only Connection names headers to drop', () => {
    const h = head(['HTTP/1.1 200 OK', 'X-Names: x-kept', 'X-Kept: 3'].join('\r\n'));
    expect(typeof h === 'string' ? h : h.headers).toEqual([
      ['X-Names', 'x-kept'],
      ['X-Kept', '3'],
    ]);
  });
});

describe('framing', () => {
  test.each([
    ['Content-Length: 5', { kind: 'length', left: 5 }],
    ['content-length:  12 ', { kind: 'length', left: 12 }],
    ['Content-Length: 0', { kind: 'none' }],
    ['Content-Length: 000', { kind: 'none' }],
    ['Content-Length: 7\r\nContent-Length: 7', { kind: 'length', left: 7 }],
    ['Content-Length: 999999999999999', { kind: 'length', left: 999999999999999 }],
    ['Transfer-Encoding: chunked', { kind: 'chunked' }],
    ['transfer-encoding:  Chunked ', { kind: 'chunked' }],
    ['X-A: 1', { kind: 'close' }],
  ])('a 200 with %j is framed %j', (headers, expected) => {
    expect(framing(`HTTP/1.1 200 OK\r\n${headers}`)).toEqual(expected);
  });

  test.each([
    ['HTTP/1.1 200 OK\r\nContent-Length: 5', 'HEAD'],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip', 'HEAD'],
    ['HTTP/1.1 204 No Content\r\nContent-Length: 5', 'GET'],
    ['HTTP/1.1 204 No Content\r\nTransfer-Encoding: gzip', 'GET'],
    ['HTTP/1.1 304 Not Modified\r\nContent-Length: 5', 'GET'],
    ['HTTP/1.1 100 Continue', 'GET'],
    ['HTTP/1.1 101 Switching Protocols', 'GET'],
    ['HTTP/1.1 199 Whatever\r\nContent-Length: 5', 'GET'],
  ])('%j to %s has no body', (text, method) => {
    expect(framing(text, method)).toEqual({ kind: 'none' });
  });

  test.each(['HTTP/1.1 200 OK', 'HTTP/1.1 205 Reset', 'HTTP/1.1 303 See Other'])(
    '%j without a length is read to the close',
    (line) => {
      expect(framing(line)).toEqual({ kind: 'close' });
    },
  );

  test.each([
    [
      'Content-Length: 5\r\nContent-Length: 6',
      'the destination sent two different Content-Length headers',
    ],
    [
      'Content-Length: 5\r\nTransfer-Encoding: chunked',
      'the destination sent both Transfer-Encoding and Content-Length (its end is ambiguous)',
    ],
    [
      'Transfer-Encoding: chunked\r\nContent-Length: 5\r\nContent-Length: 6',
      'the destination sent both Transfer-Encoding and Content-Length (its end is ambiguous)',
    ],
    [
      'Transfer-Encoding: gzip, chunked',
      `the destination's transfer coding "gzip, chunked" is not one a proxy can pass on`,
    ],
    [
      'Transfer-Encoding: gzip\r\nTransfer-Encoding: CHUNKED',
      `the destination's transfer coding "gzip, chunked" is not one a proxy can pass on`,
    ],
    [
      'Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked',
      `the destination's transfer coding "chunked, chunked" is not one a proxy can pass on`,
    ],
    [
      'Transfer-Encoding: identity',
      `the destination's transfer coding "identity" is not one a proxy can pass on`,
    ],
    ['Content-Length: 1.5', `the destination's Content-Length "1.5" is not a number`],
    ['Content-Length: -1', `the destination's Content-Length "-1" is not a number`],
    ['Content-Length: +1', `the destination's Content-Length "+1" is not a number`],
    ['Content-Length:', `the destination's Content-Length "" is not a number`],
    ['Content-Length: 5, 5', `the destination's Content-Length "5, 5" is not a number`],
    ['Content-Length: 5x', `the destination's Content-Length "5x" is not a number`],
    ['Content-Length: x5', `the destination's Content-Length "x5" is not a number`],
    [
      'Content-Length: 1000000000000000',
      `the destination's Content-Length "1000000000000000" is not a number`,
    ],
  ])('%j: %s', (headers, reason) => {
    expect(head(`HTTP/1.1 200 OK\r\n${headers}`)).toBe(reason);
  });

  test('an ambiguous length is refused also where no body follows', () => {
    expect(head('HTTP/1.1 204 No\r\nContent-Length: 1\r\nContent-Length: 2', 'HEAD')).toBe(
      'the destination sent two different Content-Length headers',
    );
    expect(head('HTTP/1.1 304 No\r\nContent-Length: 1\r\nTransfer-Encoding: chunked')).toBe(
      'the destination sent both Transfer-Encoding and Content-Length (its end is ambiguous)',
    );
  });
});

describe('an answer read off the socket', () => {
  const lengthAnswer = 'HTTP/1.1 201 Made\r\nX-A: 1\r\nContent-Length: 5\r\n\r\nhello';
  const ok = (body: string, status = 201, reason = 'Made', headers = [['X-A', '1']]) => ({
    status,
    reason,
    headers,
    body,
    complete: true,
    failed: [],
  });

  test('a Content-Length body, cut anywhere, arrives whole and ends the answer', async () => {
    const expected = ok('hello', 201, 'Made', [
      ['X-A', '1'],
      ['Content-Length', '5'],
    ]);
    expect(await forward([lengthAnswer])).toEqual(expected);
    for (const pieces of [...halves(lengthAnswer), bytes(lengthAnswer)])
      expect(await forward(pieces)).toEqual(expected);
  });

  test('bytes after the length, in the same read or a later one, are dropped', async () => {
    const expected = await forward([lengthAnswer]);
    expect(await forward([`${lengthAnswer}EXTRA`])).toEqual(expected);
    expect(await forward([lengthAnswer, 'EXTRA'])).toEqual(expected);
    expect(
      await forward(['HTTP/1.1 201 Made\r\nX-A: 1\r\nContent-Length: 5\r\n\r\nhel', 'loEXTRA']),
    ).toEqual(expected);
  });

  test('a chunked body with extensions and trailers, cut anywhere, arrives as its data', async () => {
    const answer =
      'HTTP/1.1 200 OK\r\nX-A: 1\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '5;name=value\r\nhello\r\n' +
      '9 \t;x\r\n, chunked\r\n' +
      '000000000001\r\n!\r\n' +
      '9\r\n\r\n\r\n0\r\n\r\n\r\n' +
      '0;last\r\nX-Trailer: t\r\nX-Other: o\r\n\r\n';
    const expected = ok('hello, chunked!\r\n\r\n0\r\n\r\n', 200, 'OK');
    expect(await forward([answer])).toEqual(expected);
    expect(await forward([`${answer}EXTRA`])).toEqual(expected);
    for (const pieces of [...halves(answer), bytes(answer)])
      expect(await forward(pieces)).toEqual(expected);
  });

  test('a body without a length is read until the destination closes', async () => {
    const answer = 'HTTP/1.0 200 OK\r\nX-A: 1\r\n\r\nall of it\r\n\r\nuntil the end';
    const expected = ok('all of it\r\n\r\nuntil the end', 200, 'OK');
    expect(await forward([answer])).toEqual(expected);
    for (const pieces of halves(answer)) expect(await forward(pieces)).toEqual(expected);
    expect(await forward(['HTTP/1.0 200 OK\r\nX-A: 1\r\n\r\n'])).toEqual(ok('', 200, 'OK'));
  });

  test('an answer without a body ends at its head, and what follows is dropped', async () => {
    expect(
      await forward(['HTTP/1.1 200 OK\r\nX-A: 1\r\nContent-Length: 5\r\n\r\nhello'], 'HEAD'),
    ).toEqual(
      ok('', 200, 'OK', [
        ['X-A', '1'],
        ['Content-Length', '5'],
      ]),
    );
    expect(
      await forward(['HTTP/1.1 204 None\r\nX-A: 1\r\nContent-Length: 5\r\n\r\nhello']),
    ).toEqual(
      ok('', 204, 'None', [
        ['X-A', '1'],
        ['Content-Length', '5'],
      ]),
    );
    expect(await forward(['HTTP/1.1 304 Same\r\nX-A: 1\r\n\r\nhello'])).toEqual(
      ok('', 304, 'Same'),
    );
    expect(await forward(['HTTP/1.1 200 OK\r\nX-A: 1\r\nContent-Length: 0\r\n\r\nhello'])).toEqual(
      ok('', 200, 'OK', [
        ['X-A', '1'],
        ['Content-Length', '0'],
      ]),
    );
  });

  test('a zero length ends the answer at its head, before the destination closes', async () => {
    const answer = 'HTTP/1.1 200 OK\r\nX-A: 1\r\nContent-Length: 0\r\n\r\n';
    const expected = ok('', 200, 'OK', [
      ['X-A', '1'],
      ['Content-Length', '0'],
    ]);
    expect(await forward([answer])).toEqual(expected);
    for (const pieces of halves(answer)) expect(await forward(pieces)).toEqual(expected);
  });

  test('an interim answer is dropped and the final one read after it', async () => {
    const answer =
      'HTTP/1.1 100 Continue\r\nX-Interim: 1\r\n\r\n' +
      'HTTP/1.1 102 Processing\r\n\r\n' +
      'HTTP/1.1 200 OK\r\nX-A: 1\r\nContent-Length: 2\r\n\r\nhi';
    const expected = ok('hi', 200, 'OK', [
      ['X-A', '1'],
      ['Content-Length', '2'],
    ]);
    expect(await forward([answer])).toEqual(expected);
    for (const pieces of halves(answer)) expect(await forward(pieces)).toEqual(expected);
  });

  const refused = (reason: string) => ({
    status: 502,
    reason: 'Bad Gateway',
    headers: [],
    body: reason,
    complete: true,
    failed: [reason],
  });

  test('a malformed head is answered 502 with the reason', async () => {
    const bad = 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nx';
    const expected = refused('the destination sent two different Content-Length headers');
    expect(await forward([bad])).toEqual(expected);
    for (const pieces of halves(bad)) expect(await forward(pieces)).toEqual(expected);
    expect(await forward(['HTTP/1.1 200 OK\r\nX-A: a\x01b\r\n\r\n'])).toEqual(
      refused(
        `the destination's answer cannot be passed on: Invalid character in header content ["X-A"]`,
      ),
    );
  });

  test('a destination that closes before its head is answered 502', async () => {
    const reason = 'the destination closed the connection without answering';
    expect(await forward([])).toEqual(refused(reason));
    expect(await forward(['HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r'])).toEqual(refused(reason));
  });

  test('a head up to the limit is read, cut anywhere; one byte more is refused', async () => {
    const line = 'HTTP/1.1 200 OK\r\nX-A: 1\r\nX-Pad: ';
    const fill = (size: number) => `${line}${'p'.repeat(size - line.length)}`;
    const at = fill(MAX_HEADER_BYTES);
    const expected = ok('hi', 200, 'OK', [
      ['X-A', '1'],
      ['X-Pad', 'p'.repeat(MAX_HEADER_BYTES - line.length)],
    ]);
    const body = '\r\n\r\nhi';
    const whole = `${at}${body}`;
    for (const cut of [1, 100, MAX_HEADER_BYTES - 1, MAX_HEADER_BYTES, MAX_HEADER_BYTES + 2])
      expect(await forward([whole.slice(0, cut), whole.slice(cut)])).toEqual(expected);
    expect(await forward([whole])).toEqual(expected);

    const reason = `the destination's answer head is longer than ${MAX_HEADER_BYTES} bytes`;
    const over = `${fill(MAX_HEADER_BYTES + 1)}${body}`;
    expect(await forward([over])).toEqual(refused(reason));
    for (const cut of [1, MAX_HEADER_BYTES, MAX_HEADER_BYTES + 1, MAX_HEADER_BYTES + 3])
      expect(await forward([over.slice(0, cut), over.slice(cut)])).toEqual(refused(reason));
    // Never finished: refused once the limit is past, before the destination closes.
    expect(await forward([fill(MAX_HEADER_BYTES + 4), 'never read'])).toEqual(refused(reason));
  });

  // After the head the client has its status: a failure can only cut its connection, with at
  // most the body's bytes before the failure sent (what a destroyed socket still flushed).
  const expectCut = (seen: Seen, body: string, reason: string) => {
    expect(seen.failed).toEqual([reason]);
    expect(seen.complete).toBe(false);
    expect(body.startsWith(seen.body)).toBe(true);
  };
  const chunkedHead = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';

  test.each([
    ['5\r\nhelloX', 'hello', 'the destination sent a chunk not followed by CRLF'],
    ['5\r\nhello\rX', 'hello', 'the destination sent a chunk not followed by CRLF'],
    ['5\r\nhello\n\r', 'hello', 'the destination sent a chunk not followed by CRLF'],
    ['5\nhello\r\n', '', 'the destination sent a chunk line ending without CR'],
    [
      '5\r\nhello\r\n0\r\nX-T: 1\n\r\n',
      'hello',
      'the destination sent a chunk line ending without CR',
    ],
    [
      '1\r\nx\r\n0\r\nX-T: 1\r\nX-U: 2\n\r\n',
      'x',
      'the destination sent a chunk line ending without CR',
    ],
    ['g\r\n', '', 'the destination sent a malformed chunk size "g"'],
    ['\r\n', '', 'the destination sent a malformed chunk size ""'],
    ['5 \r\nhello\r\n', '', 'the destination sent a malformed chunk size "5 "'],
    [' 5\r\nhello\r\n', '', 'the destination sent a malformed chunk size " 5"'],
    ['5x;a\r\nhello\r\n', '', 'the destination sent a malformed chunk size "5x;a"'],
    ['-5\r\n', '', 'the destination sent a malformed chunk size "-5"'],
    ['0000000000001\r\nx\r\n', '', 'the destination sent a malformed chunk size "0000000000001"'],
  ])(
    'chunked %j: the client gets %j, then its connection is cut (%s)',
    async (rest, body, reason) => {
      const answer = chunkedHead + rest;
      expectCut(await forward([answer]), body, reason);
      for (const pieces of halves(answer)) expectCut(await forward(pieces), body, reason);
    },
  );

  test('a chunk size line up to 4096 bytes is read, a longer one is refused before its end', async () => {
    const ext = (size: number) => `1;${'e'.repeat(size - 4)}\r\n`;
    const answer = (line: string) => `${chunkedHead}${line}x\r\n0\r\n\r\n`;
    const longest = answer(ext(4096));
    for (const at of [longest.length, 100, chunkedHead.length + 4095, chunkedHead.length + 4096])
      expect(await forward([longest.slice(0, at), longest.slice(at)])).toEqual(
        ok('x', 200, 'OK', []),
      );
    const reason = 'the destination sent a chunk size line too long to be one';
    expectCut(await forward([answer(ext(4097))]), '', reason);
    expectCut(await forward([chunkedHead, `1;${'e'.repeat(5000)}`, 'never read']), '', reason);
    const trailer = `${chunkedHead}1\r\nx\r\n0\r\nX-T: ${'t'.repeat(5000)}\r\n\r\n`;
    expectCut(await forward([trailer]), 'x', reason);
    const second = `${chunkedHead}1\r\nx\r\n0\r\nX-T: 1\r\nX-U: ${'u'.repeat(5000)}\r\n\r\n`;
    expectCut(await forward([second]), 'x', reason);
  });

  test('a destination that closes mid-body cuts the client off', async () => {
    const reason = 'the destination closed the connection before the end of its answer';
    expectCut(await forward(['HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel']), 'hel', reason);
    expectCut(await forward([`${chunkedHead}5\r\nhello\r\n`]), 'hello', reason);
    expectCut(await forward([`${chunkedHead}5\r\nhello\r\n0\r\n`]), 'hello', reason);
  });
});

describe('any answer, cut anywhere', () => {
  const token = fc.stringMatching(/^X-[A-Za-z0-9-]{1,8}$/);
  const value = fc.stringMatching(/^[!-~]([ !-~]{0,10}[!-~])?$/);
  const latin1 = fc.uint8Array({ maxLength: 48 }).map((b) => Buffer.from(b).toString('latin1'));
  const answers = fc.record({
    status: fc.constantFrom(200, 201, 206, 404, 500),
    reason: fc.constantFrom('OK', '', 'Some Reason'),
    headers: fc.array(fc.tuple(token, value), { maxLength: 4 }),
    framing: fc.constantFrom('length', 'chunked', 'close'),
    body: latin1,
    /** Where the chunked body is cut into chunks. */
    cuts: fc.array(fc.nat(), { maxLength: 4 }),
    interim: fc.boolean(),
    trailer: fc.boolean(),
  });
  type Answer = typeof answers extends fc.Arbitrary<infer A> ? A : never;

  const chunksOf = (a: Answer) => {
    const at = [...new Set(a.cuts.map((c) => c % (a.body.length + 1)))].sort((x, y) => x - y);
    return [0, ...at, a.body.length]
      .slice(1)
      .map((end, i, ends) => a.body.slice(i ? ends[i - 1] : 0, end))
      .filter((c) => c.length);
  };
  const serialize = (a: Answer, corrupt?: number) => {
    const status = `HTTP/1.1 ${a.status}${a.reason ? ` ${a.reason}` : ''}\r\n`;
    const lines = a.headers.map(([n, v]) => `${n}: ${v}\r\n`).join('');
    const interim = a.interim ? 'HTTP/1.1 100 Continue\r\n\r\n' : '';
    if (a.framing === 'length')
      return `${interim}${status}${lines}Content-Length: ${a.body.length}\r\n\r\n${a.body}`;
    if (a.framing === 'close') return `${interim}${status}${lines}\r\n${a.body}`;
    const chunks = chunksOf(a).map(
      (c, i) => `${i === corrupt ? 'z' : ''}${c.length.toString(16)};i=${i}\r\n${c}\r\n`,
    );
    const last = `${chunks.length === corrupt ? 'z' : ''}0\r\n${a.trailer ? 'X-T: t\r\n' : ''}\r\n`;
    return `${interim}${status}${lines}Transfer-Encoding: chunked\r\n\r\n${chunks.join('')}${last}`;
  };
  const pieces = (text: string, at: number[]) => {
    const ends = [...new Set(at.map((p) => p % text.length))].sort((x, y) => x - y);
    return [0, ...ends, text.length]
      .slice(1)
      .map((end, i, all) => text.slice(i ? all[i - 1] : 0, end));
  };

  test('is read as it is whole: its status, headers and body, and nothing failed', async () => {
    await fc.assert(
      fc.asyncProperty(answers, fc.array(fc.nat(), { maxLength: 6 }), async (a, at) => {
        const headers = a.headers.map(([n, v]) => [n, v]);
        if (a.framing === 'length') headers.push(['Content-Length', String(a.body.length)]);
        expect(await forward(pieces(serialize(a), at))).toEqual({
          status: a.status,
          reason: a.reason,
          headers,
          body: a.body,
          complete: true,
          failed: [],
        });
      }),
      { numRuns: 60 },
    );
  });

  test('a chunked body with one malformed size line is refused there, never passed on whole', async () => {
    await fc.assert(
      fc.asyncProperty(
        answers,
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (a, c, at) => {
          const chunked = { ...a, framing: 'chunked' as const };
          const chunks = chunksOf(chunked);
          const corrupt = c % (chunks.length + 1);
          const seen = await forward(pieces(serialize(chunked, corrupt), at));
          expect(seen.failed).toHaveLength(1);
          expect(seen.failed[0]).toMatch(
            /^the destination sent a malformed chunk size "z[0-9a-f]+(;i=\d+)?"$/,
          );
          expect(seen.complete).toBe(false);
          expect(chunks.slice(0, corrupt).join('').startsWith(seen.body)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('flow control', () => {
  test('a body larger than the client takes at once arrives whole: the destination waits for the client', async () => {
    const size = 6 * 1024 * 1024;
    const body = Buffer.alloc(size);
    for (let i = 0; i < size; i += 4) body.writeUInt32LE(i, i);
    const destination = createTcpServer((s) =>
      // Chunks of 16 KiB: each read holds many, so several writes of one buffer are pending at once.
      s.end(
        Buffer.concat([
          Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'),
          ...Array.from({ length: size / 16384 }, (_, i) => [
            Buffer.from('4000\r\n'),
            body.subarray(i * 16384, (i + 1) * 16384),
            Buffer.from('\r\n'),
          ]).flat(),
          Buffer.from('0\r\n\r\n'),
        ]),
      ),
    );
    destination.listen(0, '127.0.0.1');
    await once(destination, 'listening');
    let sent!: () => void;
    const paused = new Promise<void>((resolve) => (sent = resolve));
    let pausedOnce = false;
    const failed: string[] = [];
    const id = `/${nextId++}`;
    handlers.set(id, async (res) => {
      const answer = new ForwardedResponse(res, 'GET', (message) => {
        failed.push(message);
        res.destroy();
      });
      const from = connect({
        host: '127.0.0.1',
        port: (destination.address() as AddressInfo).port,
        onread: {
          buffer: answer.buffer,
          callback: (n, buf) => {
            const go = answer.read(n, buf);
            if (!go && !res.writableEnded) {
              pausedOnce = true;
              sent();
            }
            return go;
          },
        },
      });
      answer.from = from;
      from.on('end', () => answer.ended());
      res.once('close', () => from.destroy());
    });
    // Without flow control the destination's whole answer is read at once: the client then
    // resumes when the destination has sent it all.
    destination.on('connection', (s) => s.once('close', sent));
    const got = await new Promise<Buffer>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: id, agent: false }, (res) => {
        res.pause();
        const chunks: Buffer[] = [];
        void paused.then(() => res.resume());
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    destination.close();
    handlers.delete(id);
    expect(failed).toEqual([]);
    expect(pausedOnce).toBe(true);
    expect(got.length).toBe(size);
    expect(got.equals(body)).toBe(true);
  });
});
