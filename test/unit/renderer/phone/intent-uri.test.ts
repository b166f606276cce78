import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alarmDetails,
  alarmIntentUri,
  isAndroid,
  MAX_ALARM_LABEL_CHARS,
  MAX_SMS_BODY_CHARS,
  smsDetails,
  smsUri,
} from '../../../../renderer/phone/tools/intent-uri';
import { ToolFailure } from '../../../../renderer/phone/tools/phone-tool';

// The links of the alarm and text prompts, read back the way Android reads them: an intent: link
// through the rules of Intent.parseUri (fields split on `;` up to `end`, typed extras, values
// decoded like Uri.decode), an sms: link as RFC 5724 (number, then the body query parameter).

interface ParsedIntent {
  action?: string;
  extras: Record<string, string | number | boolean>;
  /** Fields the parser did not know: an injected `component=` or `package=` would land here. */
  other: string[];
}

/** Intent.parseUri(uri, URI_INTENT_SCHEME) for what these links may contain. */
function parseIntentUri(uri: string): ParsedIntent {
  expect(uri.startsWith('intent:#Intent;')).toBe(true);
  const body = uri.slice('intent:#Intent;'.length);
  const fields = body.split(';');
  expect(fields.at(-1)).toBe('end');
  const parsed: ParsedIntent = { extras: {}, other: [] };
  for (const field of fields.slice(0, -1)) {
    const eq = field.indexOf('=');
    const key = field.slice(0, eq);
    const value = decodeURIComponent(field.slice(eq + 1));
    if (key === 'action') parsed.action = value;
    else if (key.startsWith('S.')) parsed.extras[key.slice(2)] = value;
    else if (key.startsWith('i.')) {
      expect(value).toMatch(/^-?\d+$/);
      parsed.extras[key.slice(2)] = Number(value);
    } else if (key.startsWith('B.')) parsed.extras[key.slice(2)] = value === 'true';
    else parsed.other.push(field);
  }
  return parsed;
}

function failure(run: () => unknown): ToolFailure {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ToolFailure);
    return err as ToolFailure;
  }
  throw new Error('expected a ToolFailure');
}

const ODD_LABELS = [
  'Take pills; then end',
  'a=b;S.android.intent.extra.alarm.SKIP_UI=true;end',
  '#Intent;component=com.evil/.X;end',
  '100% sure & done?',
  'Réveil ☕ — 早上好 🐈‍⬛',
  '  spaced\nout\tlabel  ',
  'plus+sign and %41 not-a-letter',
];

describe('the alarm prompt’s intent: link', () => {
  it('opens SET_ALARM with hour, minutes, the label as message and skip-UI off', () => {
    const uri = alarmIntentUri(alarmDetails({ hour: 7, minute: 5, label: 'Take pills' }));
    expect(uri).toBe(
      'intent:#Intent;action=android.intent.action.SET_ALARM;' +
        'i.android.intent.extra.alarm.HOUR=7;i.android.intent.extra.alarm.MINUTES=5;' +
        'S.android.intent.extra.alarm.MESSAGE=Take%20pills;' +
        'B.android.intent.extra.alarm.SKIP_UI=false;end',
    );
  });

  it.each(ODD_LABELS)('carries the odd label %j intact and adds no field', (label) => {
    const parsed = parseIntentUri(alarmIntentUri(alarmDetails({ hour: 23, minute: 59, label })));
    expect(parsed).toEqual({
      action: 'android.intent.action.SET_ALARM',
      extras: {
        'android.intent.extra.alarm.HOUR': 23,
        'android.intent.extra.alarm.MINUTES': 59,
        'android.intent.extra.alarm.MESSAGE': label.replace(/\s+/g, ' ').trim(),
        'android.intent.extra.alarm.SKIP_UI': false,
      },
      other: [],
    });
  });

  it('round-trips any label and any valid time, never ending the intent early', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        (hour, minute, label) => {
          fc.pre(label.length <= MAX_ALARM_LABEL_CHARS);
          const details = alarmDetails({ hour, minute, label });
          const uri = alarmIntentUri(details);
          // Only the structure's own `;` and `=`: the label's are encoded.
          expect(uri.split(';')).toHaveLength(details.label ? 7 : 6);
          const parsed = parseIntentUri(uri);
          expect(parsed.other).toEqual([]);
          expect(parsed.extras['android.intent.extra.alarm.HOUR']).toBe(hour);
          expect(parsed.extras['android.intent.extra.alarm.MINUTES']).toBe(minute);
          expect(parsed.extras['android.intent.extra.alarm.MESSAGE']).toBe(
            details.label || undefined,
          );
        },
      ),
    );
  });

  it('accepts the bounds of the clock: 00:00 and 23:59', () => {
    expect(alarmDetails({ hour: 0, minute: 0 })).toEqual({ hour: 0, minute: 0, label: '' });
    expect(alarmDetails({ hour: 23, minute: 59, label: 'x' })).toMatchObject({
      hour: 23,
      minute: 59,
    });
    // No label: no message extra at all, rather than an empty one.
    expect(alarmIntentUri(alarmDetails({ hour: 0, minute: 0 }))).not.toContain('MESSAGE');
  });

  it.each([
    [{ hour: 24, minute: 0 }, 'hour must be a whole number from 0 to 23 (got 24)'],
    [{ hour: -1, minute: 0 }, 'hour must be a whole number from 0 to 23 (got -1)'],
    [{ hour: 7.5, minute: 0 }, 'hour must be a whole number from 0 to 23 (got 7.5)'],
    [{ hour: '7', minute: 0 }, 'hour must be a whole number from 0 to 23 (got "7")'],
    [{ minute: 0 }, 'hour must be a whole number from 0 to 23 (got undefined)'],
    [{ hour: 7, minute: 60 }, 'minute must be a whole number from 0 to 59 (got 60)'],
    [{ hour: 7, minute: Number.NaN }, 'minute must be a whole number from 0 to 59 (got NaN)'],
    [{ hour: 7, minute: 0, label: 5 }, 'label must be a string'],
    [
      { hour: 7, minute: 0, label: 'x'.repeat(MAX_ALARM_LABEL_CHARS + 1) },
      `label is ${MAX_ALARM_LABEL_CHARS + 1} characters; at most ${MAX_ALARM_LABEL_CHARS}`,
    ],
    [{ hour: 7, minute: 0, label: 'bad \uD800 half' }, 'label is not valid text'],
  ])('rejects %j with a clear error', (args, message) => {
    const err = failure(() => alarmDetails(args as Record<string, unknown>));
    expect(err.code).toBe('invalid_args');
    expect(err.message).toContain(message);
  });
});

describe('the text prompt’s sms: link', () => {
  it('carries the number as dialled and the body as the body parameter', () => {
    expect(smsUri(smsDetails({ to: '+1 (510) 555-0101', body: 'hello there' }))).toBe(
      'sms:+15105550101?body=hello%20there',
    );
  });

  const ODD_BODIES = [
    'Running late & stuck?\nSee you at 7 — 100% sure',
    'body=evil&to=+19005550000',
    'a+b c',
    '#hash ;semi ,comma /slash',
    'Ça va? 🐈 日本語',
  ];

  it.each(ODD_BODIES)('carries the odd body %j intact and no second recipient', (body) => {
    const uri = smsUri(smsDetails({ to: '0612345678', body }));
    // What the Messages app reads: the number before `?`, then one `body` parameter.
    const [number, query] = [uri.slice(4, uri.indexOf('?')), uri.slice(uri.indexOf('?') + 1)];
    expect(number).toBe('0612345678');
    const params = new URLSearchParams(query);
    expect([...params.keys()]).toEqual(['body']);
    expect(params.get('body')).toBe(body);
    // Also when `+` is not read as a space (Uri.decode): the body has no raw `+` or space.
    expect(decodeURIComponent(query.slice('body='.length))).toBe(body);
  });

  it('round-trips any body', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }), (body) => {
        fc.pre(body.trim() !== '' && body.length <= MAX_SMS_BODY_CHARS);
        const uri = smsUri(smsDetails({ to: '+33612345678', body }));
        expect(uri.indexOf('?')).toBe('sms:+33612345678'.length);
        expect(new URLSearchParams(uri.slice(uri.indexOf('?') + 1)).get('body')).toBe(body);
      }),
    );
  });

  it.each([
    [{ body: 'hi' }, 'to must be a phone number as a string'],
    [{ to: 5105550101, body: 'hi' }, 'to must be a phone number as a string'],
    [{ to: '555-0101,555-0102', body: 'hi' }, 'to must be one phone number'],
    [{ to: '5550101?body=x', body: 'hi' }, 'to must be one phone number'],
    [{ to: 'mom', body: 'hi' }, 'to must be one phone number'],
    [{ to: '12', body: 'hi' }, 'to must be one phone number'],
    [{ to: '+1'.padEnd(25, '5'), body: 'hi' }, 'to must be one phone number'],
    [{ to: '5550101', body: '   ' }, 'body must not be empty'],
    [{ to: '5550101' }, 'body must be a string'],
    [
      { to: '5550101', body: 'x'.repeat(MAX_SMS_BODY_CHARS + 1) },
      `body is ${MAX_SMS_BODY_CHARS + 1} characters; at most ${MAX_SMS_BODY_CHARS}`,
    ],
    [{ to: '5550101', body: '\uDC00' }, 'body is not valid text'],
  ])('rejects %j with a clear error', (args, message) => {
    const err = failure(() => smsDetails(args as Record<string, unknown>));
    expect(err.code).toBe('invalid_args');
    expect(err.message).toContain(message);
  });
});

describe('which phones get the tools', () => {
  it('declares them on Android only', () => {
    expect(
      isAndroid(
        'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
      ),
    ).toBe(true);
    expect(
      isAndroid(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toBe(false);
    expect(isAndroid('Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36')).toBe(false);
  });
});
