import { describe, expect, it } from 'vitest';
import { validatePanelTree } from '../../../shared/panels/validate';
import { renderPanelText } from '../../../shared/panels/render-text';
import { applyPanelEdit } from '../../../shared/panels/edit';
import { COMPONENT_NAMES, type PanelNode } from '../../../shared/panels/components';

const errorsOf = (root: unknown) => {
  const r = validatePanelTree(root);
  if (r.ok) throw new Error('expected a refusal');
  return r.errors.join('\n');
};

const text = (t: string) => ({ type: 'Text', text: t });

describe('the panel vocabulary', () => {
  it('has exactly the eleven components of the seed', () => {
    expect(COMPONENT_NAMES.sort()).toEqual(
      [
        'Alert',
        'Badge',
        'Card',
        'CodeBlock',
        'Divider',
        'Heading',
        'KeyValue',
        'Link',
        'Stack',
        'Table',
        'Text',
      ].sort(),
    );
  });

  it('accepts a tree using every component and fills defaults', () => {
    const r = validatePanelTree([
      { type: 'Heading', text: 'Status', level: 1 },
      {
        type: 'Card',
        id: 'main',
        title: 'Build',
        children: [
          {
            type: 'Stack',
            direction: 'row',
            children: [
              { type: 'Badge', label: 'passing', tone: 'success' },
              { type: 'Badge', label: 'v2' },
            ],
          },
          { type: 'KeyValue', items: [{ label: 'Duration', value: '41 s' }] },
          {
            type: 'Table',
            headers: ['Test', 'Result'],
            rows: [
              ['auth', 'ok'],
              ['db', 'ok'],
            ],
          },
          { type: 'CodeBlock', code: 'npm test', language: 'sh' },
          { type: 'Alert', tone: 'warning', title: 'Flaky', text: 'db test retried once' },
          { type: 'Divider' },
          { type: 'Link', label: 'CI run', href: 'https://ci.example/run/1' },
          text('All good.'),
        ],
      },
    ]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.nodeCount).toBe(12);
    expect(r.tree[0]).toMatchObject({ type: 'Heading', level: 1 });
  });

  it.each([
    ['javascript:alert(1)'],
    ['data:text/html,<b>x</b>'],
    ['file:///etc/passwd'],
    ['ftp://example.com'],
    ['//example.com'],
    // The pattern is anchored at both ends: an allowed scheme later in the text does not pass.
    ['javascript:alert(1)//https://example.com'],
    ['https://example.com/ javascript:alert(1)'],
  ])('refuses a link to %s', (href) => {
    expect(errorsOf([{ type: 'Link', label: 'x', href }])).toMatch(
      /root\[0\]\.href: a link must be an http, https or mailto URL/,
    );
  });

  it('accepts http, https and mailto links', () => {
    for (const href of ['http://a.b/c', 'https://a.b/c?d=e#f', 'mailto:me@example.com']) {
      expect(validatePanelTree([{ type: 'Link', label: 'x', href }]).ok).toBe(true);
    }
  });

  it('refuses a tree of more than 200 nodes, naming the limit', () => {
    expect(errorsOf(Array.from({ length: 201 }, (_, i) => text(`n${i}`)))).toMatch(
      /at most 200 nodes/,
    );
    expect(validatePanelTree(Array.from({ length: 200 }, (_, i) => text(`n${i}`))).ok).toBe(true);
  });

  it('refuses nesting deeper than 8 levels', () => {
    const nest = (depth: number): unknown =>
      depth === 1 ? text('leaf') : { type: 'Card', children: [nest(depth - 1)] };
    expect(validatePanelTree([nest(8)]).ok).toBe(true);
    expect(errorsOf([nest(9)])).toMatch(/deeper than 8 levels/);
  });

  it('refuses a tree over 200,000 serialized characters', () => {
    const big = Array.from({ length: 11 }, () => ({ type: 'CodeBlock', code: 'x'.repeat(19_000) }));
    expect(errorsOf(big)).toMatch(/at most 200000/);
  });

  it('enforces the field limits: code 20,000, paragraph 2,000, values 500', () => {
    expect(errorsOf([{ type: 'CodeBlock', code: 'x'.repeat(20_001) }])).toMatch(/root\[0\]\.code/);
    expect(validatePanelTree([{ type: 'CodeBlock', code: 'x'.repeat(20_000) }]).ok).toBe(true);
    expect(errorsOf([text('x'.repeat(2_001))])).toMatch(/root\[0\]\.text/);
    expect(errorsOf([{ type: 'Table', headers: ['a'], rows: [['x'.repeat(501)]] }])).toMatch(
      /root\[0\]\.rows\[0\]\[0\]/,
    );
    expect(
      errorsOf([{ type: 'KeyValue', items: [{ label: 'k', value: 'x'.repeat(501) }] }]),
    ).toMatch(/items\[0\]\.value/);
  });

  it('refuses markup, styling and unknown fields on known components, and ragged tables', () => {
    expect(errorsOf([{ type: 'Text', text: 'x', style: 'color:red' }])).toMatch(/style/);
    expect(errorsOf([{ type: 'Table', headers: ['a', 'b'], rows: [['1']] }])).toMatch(
      /has 1 cells, the table has 2 headers/,
    );
    expect(
      errorsOf([{ type: 'Card', id: 'x', children: [{ type: 'Stack', id: 'x', children: [] }] }]),
    ).toMatch(/already used/);
  });

  it('keeps a component outside the vocabulary as a bare placeholder, dropping its fields', () => {
    const r = validatePanelTree([{ type: 'Chart', data: [1, 2, 3], script: 'alert(1)' }]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.tree[0]).toEqual({ type: 'Chart', unsupported: true });
    expect(r.unsupported).toEqual(['Chart']);
    expect(renderPanelText(r.tree)).toBe('[unsupported component: Chart]');
  });
});

describe('the plain-text rendering', () => {
  it('reads as text: headings, cards indented, key/values aligned, tables, code fenced, links with their URL', () => {
    const r = validatePanelTree([
      { type: 'Heading', text: 'Deploy', level: 2 },
      {
        type: 'Card',
        title: 'Result',
        children: [
          {
            type: 'KeyValue',
            items: [
              { label: 'Env', value: 'prod' },
              { label: 'Version', value: '1.2' },
            ],
          },
        ],
      },
      { type: 'Table', headers: ['a', 'bb'], rows: [['1', '2']] },
      { type: 'CodeBlock', code: 'make deploy', language: 'sh' },
      { type: 'Link', label: 'Logs', href: 'https://x.y/logs' },
    ]);
    if (!r.ok) throw new Error(r.errors.join());
    expect(renderPanelText(r.tree)).toBe(
      [
        '## Deploy',
        '[Result]',
        '  Env:     prod',
        '  Version: 1.2',
        'a | bb',
        '--|---',
        '1 | 2',
        '```sh',
        'make deploy',
        '```',
        'Logs <https://x.y/logs>',
      ].join('\n'),
    );
  });
});

describe('incremental building by container id', () => {
  const tree = (): PanelNode[] => {
    const r = validatePanelTree([
      { type: 'Card', id: 'list', title: 'Steps', children: [text('one')] },
      { type: 'Stack', id: 'side', children: [] },
    ]);
    if (!r.ok) throw new Error('bad fixture');
    return r.tree;
  };

  it('appends into a container, keeping the rest of the tree', () => {
    const r = applyPanelEdit(tree(), 'list', 'append', [text('two') as PanelNode]);
    expect(r.ok && renderPanelText(r.tree)).toBe('[Steps]\n  one\n  two');
  });

  it('updates a container in place, keeping its id', () => {
    const r = applyPanelEdit(tree(), 'list', 'update', [
      { type: 'Card', title: 'Done', children: [] } as unknown as PanelNode,
    ]);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.tree[0]).toMatchObject({ type: 'Card', id: 'list', title: 'Done' });
  });

  it('names the container ids it has when the target is not one of them', () => {
    const r = applyPanelEdit(tree(), 'nope', 'append', []);
    expect(r).toEqual({
      ok: false,
      error: expect.stringContaining('its container ids: list, side'),
    });
  });
});
