import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Harness } from './harness';
import { tempDir } from '../../helpers/temp';
import { MENTION_MAX_BYTES } from '../../../electron/host/sessions/constants';

// #17.14: `@path` in the composer. The menu lists the session's project files as list_dir would
// (ignores honoured, inside the root); a sent mention attaches the file, read when sent, and the
// model reads it after the message. Nothing outside the root is ever attached.

describe('@ file mentions', () => {
  let h: Harness;
  const cleanups: Array<() => void> = [];
  afterEach(async () => {
    await h?.close();
    for (const c of cleanups.splice(0)) c();
  });

  it('the menu lists the project files best match first, without ignored ones', async () => {
    h = await Harness.start({
      files: {
        'src/server.ts': 'export {};\n',
        'src/services/session-runner.ts': 'export {};\n',
        'build/out/server.js': 'compiled\n',
        '.gitignore': 'build/\n',
      },
    });
    const id = await h.newSession();
    const found = await h.invoke('files.search', { id, query: 'server', limit: 10 });
    expect(found.files[0]).toBe('src/server.ts');
    expect(found.files).not.toContain('build/out/server.js');
    expect(found.total).toBe(3);
    const all = await h.invoke('files.search', { id, query: '', limit: 50 });
    expect(all.files.sort()).toEqual([
      '.gitignore',
      'src/server.ts',
      'src/services/session-runner.ts',
    ]);
  });

  it('a session with no project has nothing to mention', async () => {
    h = await Harness.start();
    const id = (await h.invoke('sessions.create', {})).session.id;
    expect(await h.invoke('files.search', { id, query: '' })).toEqual({
      files: [],
      total: 0,
      root: null,
      resources: [],
    });
  });

  it('a mentioned file reaches the model with the message, as it was when sent', async () => {
    h = await Harness.start({
      files: {
        'src/server.ts': 'const PORT = 3000;\n',
        'docs/a b.md': 'spaced name\n',
      },
    });
    h.script.push({ text: 'Seen.' });
    const id = await h.newSession();
    await h.invoke('sessions.send', {
      id,
      text: 'Why @src/server.ts, and @"docs/a b.md"? Mail me@example.com, not @nothing.ts.',
      capabilities: [],
    });
    const events = await h.waitFor(id, (es) => es.some((e) => e.type === 'assistant_message'));
    // Changed after sending: the model still saw what was sent.
    writeFileSync(join(h.project, 'src/server.ts'), 'const PORT = 4000;\n');
    const sent = events.find((e) => e.type === 'user_message')!;
    expect(sent.type === 'user_message' && sent.mentions?.map((m) => m.path)).toEqual([
      'src/server.ts',
      'docs/a b.md',
    ]);
    const seen = h.script.requests[0]!.transcript;
    expect(seen).toContain('<file path="src/server.ts">\nconst PORT = 3000;\n</file>');
    expect(seen).toContain('<file path="docs/a b.md">\nspaced name\n</file>');
    expect(seen).not.toContain('example.com"');
  });

  it('a large file is attached up to its cap, with a note saying how to read the rest', async () => {
    const big = 'x'.repeat(MENTION_MAX_BYTES + 500);
    h = await Harness.start({ files: { 'big.txt': big, 'pic.bin': '\0\x01\x02binary' } });
    h.script.push({ text: 'ok' });
    const id = await h.newSession();
    await h.invoke('sessions.send', { id, text: 'see @big.txt and @pic.bin', capabilities: [] });
    const events = await h.waitFor(id, (es) => es.some((e) => e.type === 'assistant_message'));
    const sent = events.find((e) => e.type === 'user_message');
    const mentions = sent?.type === 'user_message' ? sent.mentions! : [];
    expect(mentions[0]!.text.length).toBe(MENTION_MAX_BYTES);
    expect(mentions[0]!.note).toMatch(/read_file reads the rest/);
    expect(mentions[1]).toMatchObject({ path: 'pic.bin', text: '' });
    expect(mentions[1]!.note).toMatch(/binary/);
  });

  it('a mention that leads outside the root attaches nothing, though the file is readable', async () => {
    const outside = tempDir('mewbo-outside-');
    cleanups.push(outside.cleanup);
    const secret = join(outside.dir, 'secret.txt');
    writeFileSync(secret, 'TOP-SECRET\n');
    h = await Harness.start({ files: { 'ok.txt': 'fine\n' } });
    symlinkSync(secret, join(h.project, 'link.txt'));
    mkdirSync(join(h.project, 'sub'));
    // The attack's targets are real and readable by this process: only the root check stops them.
    expect(readFileSync(join(h.project, 'link.txt'), 'utf8')).toBe('TOP-SECRET\n');
    const up = join('..', outside.dir.slice(dirname(h.project).length + 1), 'secret.txt');
    expect(readFileSync(join(h.project, up), 'utf8')).toBe('TOP-SECRET\n');

    h.script.push({ text: 'ok' });
    const id = await h.newSession();
    await h.invoke('sessions.send', {
      id,
      text: `@${secret} @${up} @link.txt @sub/../${up} @ok.txt`,
      capabilities: [],
    });
    const events = await h.waitFor(id, (es) => es.some((e) => e.type === 'assistant_message'));
    const sent = events.find((e) => e.type === 'user_message');
    expect(sent?.type === 'user_message' && sent.mentions?.map((m) => m.path)).toEqual(['ok.txt']);
    expect(h.script.requests[0]!.transcript).not.toContain('TOP-SECRET');
    const listed = await h.invoke('files.search', { id, query: 'secret' });
    expect(listed.files).toEqual([]);
  });
});
