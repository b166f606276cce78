import { describe, expect, it } from 'vitest';
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
