import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeForApproval } from '../../../electron/host/agent/approval-detail';
import { editBlockTool } from '../../../electron/host/tools/edit-block';
import { tempDir } from '../../helpers/temp';

describe('what an approval shows', () => {
  it('names the files of SEARCH/REPLACE blocks, not their closing fences', async () => {
    const t = tempDir();
    try {
      const content = [
        'src/server.ts',
        '```ts',
        '<<<<<<< SEARCH',
        'const PORT = 3000;',
        '=======',
        'const PORT = 8080;',
        '>>>>>>> REPLACE',
        '```',
        '',
        'README.md',
        '```',
        '<<<<<<< SEARCH',
        '',
        '=======',
        'Port 8080.',
        '>>>>>>> REPLACE',
        '```',
      ].join('\n');
      const shown = await describeForApproval(editBlockTool, { content }, t.dir);
      expect(shown.summary).toBe('Edit src/server.ts, README.md');
      expect(shown.detail).toContain('const PORT = 8080;');
    } finally {
      t.cleanup();
    }
  });
});

describe('a SEARCH/REPLACE approval', () => {
  const block = (search: string, replace: string) =>
    `src/server.ts\n\`\`\`\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;

  it('shows the unified diff the edit would make, and writes nothing', async () => {
    const t = tempDir();
    try {
      mkdirSync(join(t.dir, 'src'));
      const before = 'const PORT = 3000;\nexport default PORT;\n';
      writeFileSync(join(t.dir, 'src/server.ts'), before);
      const shown = await describeForApproval(
        editBlockTool,
        { content: block('const PORT = 3000;', 'const PORT = 8080;') },
        t.dir,
      );
      expect(shown.summary).toBe('Edit src/server.ts');
      expect(shown.detail).toContain('+++ b/src/server.ts');
      expect(shown.detail).toContain('\n-const PORT = 3000;\n+const PORT = 8080;\n');
      expect(shown.detail).not.toContain('<<<<<<< SEARCH');
      expect(readFileSync(join(t.dir, 'src/server.ts'), 'utf8')).toBe(before);
    } finally {
      t.cleanup();
    }
  });

  it('shows the blocks as sent when they would not apply', async () => {
    const t = tempDir();
    try {
      mkdirSync(join(t.dir, 'src'));
      writeFileSync(join(t.dir, 'src/server.ts'), 'const PORT = 3000;\n');
      const content = block('const HOST = "x";', 'const HOST = "y";');
      const shown = await describeForApproval(editBlockTool, { content }, t.dir);
      expect(shown.detail).toBe(content);
    } finally {
      t.cleanup();
    }
  });
});
