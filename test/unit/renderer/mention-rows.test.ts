import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mentionRows, type MentionListing } from '../../../renderer/src/lib/mention-rows';

// The @ menu's rows for what is typed now, when the host's last answer may be for an earlier
// query (it answers each keystroke's query in turn).

const listing = (query: string): MentionListing => ({
  query,
  files: ['README.md', 'src/reader.ts', 'docs/big-guide.md'],
  resources: [
    { ref: 'srv:test://readme', name: 'readme', server: 'srv' },
    { ref: 'srv:test://big', name: 'big', server: 'srv' },
  ],
});

describe('mention rows', () => {
  it("an answer for the query typed now shows every row the host sent, in the host's order", () => {
    expect(mentionRows(listing('re'), 're').map((r) => r.ref)).toEqual([
      'README.md',
      'src/reader.ts',
      'docs/big-guide.md',
      'srv:test://readme',
      'srv:test://big',
    ]);
  });

  it('an answer for an earlier query shows only the rows that still contain what is typed', () => {
    // "@r" was answered; "@readme" is typed: Enter must not insert the big resource.
    expect(mentionRows(listing('r'), 'readme').map((r) => r.ref)).toEqual([
      'README.md',
      'srv:test://readme',
    ]);
  });

  it('a file row is named by its last segment and placed by its folder; a resource by its server', () => {
    const rows = mentionRows(listing(''), '');
    expect(rows[1]).toEqual({ ref: 'src/reader.ts', name: 'reader.ts', where: 'src' });
    expect(rows[0]).toEqual({ ref: 'README.md', name: 'README.md', where: '' });
    expect(rows[3]).toEqual({
      ref: 'srv:test://readme',
      name: 'readme',
      where: 'test://readme · MCP server srv',
    });
  });

  it('whatever the answers, a stale one never offers a row that does not contain the query', () => {
    const word = fc.stringMatching(/^[a-zA-Z/._-]{0,8}$/);
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), word, word, (files, asked, typed) => {
        fc.pre(asked !== typed);
        const rows = mentionRows({ query: asked, files, resources: [] }, typed);
        for (const r of rows) expect(r.ref.toLowerCase()).toContain(typed.toLowerCase());
        expect(rows.length).toBe(
          files.filter((f) => f.toLowerCase().includes(typed.toLowerCase())).length,
        );
      }),
    );
  });
});
