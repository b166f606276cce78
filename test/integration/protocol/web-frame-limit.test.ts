import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import WebSocket from 'ws';
import { MAX_FRAME_BYTES } from '../../../electron/web/constants';
import { commands } from '../../../shared/protocol/commands';
import { IMAGE_NAME_MAX_CHARS } from '../../../shared/protocol/events';
import {
  IMAGES_MAX_TOTAL_BASE64_CHARS,
  IMAGES_PER_MESSAGE,
} from '../../../shared/images/image-file';
import {
  PASTED_MAX_TOTAL_CHARS,
  PASTES_PER_MESSAGE,
} from '../../../shared/attachments/pasted-text';
import { REPO_ROOT, startHost, type HostProcess } from '../../helpers/host-process';
import { tempDir } from '../../helpers/temp';

// One frame limit for the web host (issue #26 part 8): the number PROTOCOL.md states is the one
// the host enforces, exactly at its edge, and it is big enough for the largest message the
// protocol's own schema accepts (else the composer would accept what the socket then refuses).

/** The character that costs the most bytes in JSON: a control character becomes `\u001b`. */
const COSTLIEST = '\u001b';

describe('the web host frame limit', () => {
  let home: ReturnType<typeof tempDir>;
  let host: HostProcess;
  beforeAll(async () => {
    home = tempDir();
    host = await startHost(home.dir);
  });
  afterAll(async () => {
    await host.stop();
    home.cleanup();
  });

  it('is the number PROTOCOL.md states', () => {
    const doc = readFileSync(`${REPO_ROOT}/electron/web/PROTOCOL.md`, 'utf8');
    const frames = doc.slice(doc.indexOf('## Frames'));
    const stated = /at most \*\*(\d+) MiB\*\*/.exec(frames);
    expect(stated, 'PROTOCOL.md "Frames" names the limit').not.toBeNull();
    expect(Number(stated![1]) * 2 ** 20).toBe(MAX_FRAME_BYTES);
  });

  it('reads a frame of exactly the limit and closes the socket on one byte more (1009)', async () => {
    const ws = await open(host);
    const head = '{"t":"invoke","id":1,"method":"sessions.list","params":{"pad":"';
    const tail = '"}}';
    const exact = head + 'x'.repeat(MAX_FRAME_BYTES - head.length - tail.length) + tail;
    expect(Buffer.byteLength(exact)).toBe(MAX_FRAME_BYTES);
    const answer = new Promise<unknown>((resolve) =>
      ws.once('message', (d) => resolve(JSON.parse(String(d)))),
    );
    ws.send(exact);
    expect(await answer).toMatchObject({ t: 'result', id: 1, ok: true });

    ws.close();
    // The host refuses by the length the frame's header announces, before its payload arrives:
    // a client still writing the rest would see its socket reset and never read the close code,
    // so this one sends just the header and reads the host's close frame.
    expect(await closeCodeForFrameOf(host, MAX_FRAME_BYTES + 1)).toBe(1009);
  });

  it('holds the largest sessions.send its schema accepts, in its costliest JSON', () => {
    const perImage = 4 * Math.floor(IMAGES_MAX_TOTAL_BASE64_CHARS / IMAGES_PER_MESSAGE / 4);
    const perPaste = Math.floor(PASTED_MAX_TOTAL_CHARS / PASTES_PER_MESSAGE);
    const params = {
      id: 's_'.padEnd(64, 'x'),
      text: COSTLIEST.repeat(200_000),
      images: Array.from({ length: IMAGES_PER_MESSAGE }, () => ({
        media_type: 'image/jpeg' as const,
        data: 'A'.repeat(perImage),
        name: COSTLIEST.repeat(IMAGE_NAME_MAX_CHARS),
      })),
      pastes: Array.from({ length: PASTES_PER_MESSAGE }, () => ({
        name: COSTLIEST.repeat(200),
        text: COSTLIEST.repeat(perPaste),
      })),
      capabilities: ['generative_ui', 'ask_user', 'approvals'],
    };
    // At the schema's edges: one character more anywhere and it is refused.
    const schema = commands['sessions.send'].request;
    expect(schema.safeParse(params).success).toBe(true);
    expect(schema.safeParse({ ...params, text: params.text + 'x' }).success).toBe(false);
    const frame = JSON.stringify({ t: 'invoke', id: 2 ** 31, method: 'sessions.send', params });
    expect(Buffer.byteLength(frame)).toBeGreaterThan(MAX_FRAME_BYTES * 0.9);
    expect(Buffer.byteLength(frame)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
  });
});

function open(host: HostProcess): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(host.wsUrl, { headers: { cookie: host.cookie } });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/**
 * Upgrades a raw socket, sends the header of a masked text frame announcing `length` bytes and
 * returns the close code the host answers with.
 */
function closeCodeForFrameOf(host: HostProcess, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1');
    const upgrade =
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nUpgrade: websocket\r\n` +
      `Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nCookie: ${host.cookie}\r\n\r\n`;
    const header = Buffer.alloc(14);
    header[0] = 0x81; // FIN, text
    header[1] = 0x80 | 127; // masked, 64-bit length follows
    header.writeBigUInt64BE(BigInt(length), 2);
    randomBytes(4).copy(header, 10);
    let got = Buffer.alloc(0);
    const finish = (code: number) => {
      socket.destroy();
      resolve(code);
    };
    socket.on('data', (d) => {
      got = Buffer.concat([got, d]);
      const end = got.indexOf('\r\n\r\n');
      if (end === -1 || !got.subarray(0, end).toString().startsWith('HTTP/1.1 101')) return;
      const frame = got.subarray(end + 4);
      if (frame.length >= 4 && frame[0] === 0x88) finish(frame.readUInt16BE(2));
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('closed without a close frame')));
    socket.write(Buffer.concat([Buffer.from(upgrade), header]));
  });
}
