import { describe, expect, it } from 'vitest';
import { checkDeclaration } from '../../../electron/host/devices/declaration';

const ok = {
  tool_id: 'device_get_time',
  description: 'Time',
  parameters: { type: 'object', properties: {} },
};

function reason(entries: unknown[]): string {
  const check = checkDeclaration(entries);
  if (check.ok) throw new Error('expected a rejection');
  return check.reason;
}

describe('declaration rules', () => {
  it('accepts device_ plus 1 to 48 of [a-z0-9_]', () => {
    expect(checkDeclaration([{ ...ok, tool_id: 'device_a' }]).ok).toBe(true);
    expect(checkDeclaration([{ ...ok, tool_id: `device_${'a'.repeat(48)}` }]).ok).toBe(true);
    expect(checkDeclaration([{ ...ok, tool_id: 'device_set_alarm_2' }]).ok).toBe(true);
  });

  it.each([
    ['device_', 'nothing after the prefix'],
    [`device_${'a'.repeat(49)}`, '49 characters'],
    ['device_Time', 'upper case'],
    ['device_get-time', 'a dash'],
    ['get_time', 'no prefix'],
    ['device_tíme', 'non-ASCII'],
  ])('rejects tool_id %s (%s)', (toolId) => {
    expect(reason([{ ...ok, tool_id: toolId }])).toMatch(/^tools\[0\]\.tool_id: must match/);
  });

  it('rejects an empty or blank description', () => {
    expect(reason([{ ...ok, description: '' }])).toMatch(
      /^tools\[0\]\.description: must be a non-empty string/,
    );
    expect(reason([{ ...ok, description: '   ' }])).toMatch(/description/);
    expect(reason([{ tool_id: 'device_x', parameters: {} }])).toMatch(/description/);
  });

  it('rejects parameters that are not a JSON Schema object', () => {
    expect(reason([{ ...ok, parameters: [] }])).toMatch(
      /^tools\[0\]\.parameters: must be a JSON Schema object/,
    );
    expect(reason([{ ...ok, parameters: 'object' }])).toMatch(/parameters/);
    expect(reason([{ ...ok, parameters: { type: 'string' } }])).toMatch(/"type": "object"/);
    expect(
      reason([{ ...ok, parameters: { type: 'object', properties: { a: { type: 'frob' } } } }]),
    ).toMatch(/not a usable JSON Schema/);
    expect(
      reason([
        {
          ...ok,
          parameters: { type: 'object', properties: { a: { $ref: 'https://x.example/s' } } },
        },
      ]),
    ).toMatch(/not a usable/);
  });

  it('rejects schemas nested past the depth limit without walking them to the bottom', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++) deep = { type: 'object', properties: { a: deep } };
    expect(reason([{ ...ok, parameters: deep }])).toMatch(/nested deeper than/);
  });

  it('rejects a duplicate and names the second entry', () => {
    expect(reason([ok, { ...ok, tool_id: 'device_other' }, ok])).toBe(
      'tools[2].tool_id: "device_get_time" is declared twice',
    );
  });

  it('rejects the whole declaration for one bad entry', () => {
    expect(checkDeclaration([ok, { ...ok, tool_id: 'device_b', description: '' }]).ok).toBe(false);
  });

  it('converts parameters so arguments are validated as the schema says', () => {
    const check = checkDeclaration([
      {
        ...ok,
        parameters: {
          type: 'object',
          properties: { n: { type: 'integer', minimum: 1 } },
          required: ['n'],
        },
      },
    ]);
    if (!check.ok) throw new Error(check.reason);
    const schema = check.tools[0]!.schema;
    expect(schema.safeParse({ n: 2 }).success).toBe(true);
    expect(schema.safeParse({ n: 0 }).success).toBe(false);
    expect(schema.safeParse({}).success).toBe(false);
  });
});
