import { ToolFailure } from './phone-tool';

// The links the alarm and text prompts offer. A web page cannot set an alarm or send a text; it
// can only hand Android a link the person taps, which opens the Clock or Messages app with the
// details filled in. Both links are built here, from checked arguments, so nothing the model
// writes can add an extra, end the intent early or add a recipient.
//
// intent: is Chrome's form of Android's Intent.toUri(URI_INTENT_SCHEME): `;`-separated fields
// between `#Intent;` and `end`, extras typed by prefix (S. string, i. int, B. boolean), values
// encoded as Uri.encode does (percent-encoding everything but A-Z a-z 0-9 - _ . ! ~ * ' ( ),
// which is exactly encodeURIComponent's set), and decoded by Intent.parseUri.

/** Android's AlarmClock.ACTION_SET_ALARM and its extras. */
export const SET_ALARM_ACTION = 'android.intent.action.SET_ALARM';
export const ALARM_EXTRA = {
  hour: 'android.intent.extra.alarm.HOUR',
  minutes: 'android.intent.extra.alarm.MINUTES',
  message: 'android.intent.extra.alarm.MESSAGE',
  skipUi: 'android.intent.extra.alarm.SKIP_UI',
} as const;

/** What the Clock app shows as the alarm's name: a line, not a note. */
export const MAX_ALARM_LABEL_CHARS = 100;
/** Ten SMS segments of 160 characters: about what carriers join into one message. */
export const MAX_SMS_BODY_CHARS = 1600;
/** E.164 allows 15 digits; a little room for national prefixes and short codes (3+ digits). */
const PHONE_NUMBER = /^\+?[0-9]{3,20}$/;
/** What people write inside a number and the Messages app ignores anyway. */
const NUMBER_SEPARATORS = /[\s().-]/g;

export interface AlarmDetails {
  hour: number;
  minute: number;
  label: string;
}

export interface SmsDetails {
  /** The number as dialled: digits with an optional leading +. */
  to: string;
  body: string;
}

function bad(message: string): ToolFailure {
  return new ToolFailure('invalid_args', message);
}

function integerIn(args: Record<string, unknown>, name: string, max: number): number {
  const value = args[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    const got = typeof value === 'string' ? JSON.stringify(value) : String(value);
    throw bad(`${name} must be a whole number from 0 to ${max} (got ${got})`);
  }
  return value;
}

function text(args: Record<string, unknown>, name: string, max: number, required: boolean) {
  const value = args[name] ?? (required ? undefined : '');
  if (typeof value !== 'string') throw bad(`${name} must be a string`);
  if (required && value.trim() === '') throw bad(`${name} must not be empty`);
  if (value.length > max) throw bad(`${name} is ${value.length} characters; at most ${max}`);
  try {
    encodeURIComponent(value);
  } catch {
    // A lone UTF-16 surrogate has no UTF-8 form, so no link can carry it.
    throw bad(`${name} is not valid text (a broken surrogate pair)`);
  }
  return value;
}

/** The alarm's checked details, or a ToolFailure naming the first bad argument. */
export function alarmDetails(args: Record<string, unknown>): AlarmDetails {
  return {
    hour: integerIn(args, 'hour', 23),
    minute: integerIn(args, 'minute', 59),
    // One line, as the Clock app shows it: line breaks and runs of spaces become one space.
    label: text(args, 'label', MAX_ALARM_LABEL_CHARS, false).replace(/\s+/g, ' ').trim(),
  };
}

/** The text's checked details, or a ToolFailure naming the first bad argument. */
export function smsDetails(args: Record<string, unknown>): SmsDetails {
  const raw = args.to;
  if (typeof raw !== 'string') throw bad('to must be a phone number as a string');
  const to = raw.replace(NUMBER_SEPARATORS, '');
  if (!PHONE_NUMBER.test(to)) {
    throw bad(
      `to must be one phone number: digits, an optional leading +, spaces or dashes (got ${JSON.stringify(raw.slice(0, 40))})`,
    );
  }
  return { to, body: text(args, 'body', MAX_SMS_BODY_CHARS, true) };
}

/** `intent:` link that opens the Clock app's new-alarm screen, filled in (skip-UI off). */
export function alarmIntentUri(details: AlarmDetails): string {
  const fields = [
    `action=${SET_ALARM_ACTION}`,
    `i.${ALARM_EXTRA.hour}=${details.hour}`,
    `i.${ALARM_EXTRA.minutes}=${details.minute}`,
    ...(details.label ? [`S.${ALARM_EXTRA.message}=${encodeURIComponent(details.label)}`] : []),
    // The person sees the alarm and saves it in the Clock app: the page never sets one unseen.
    `B.${ALARM_EXTRA.skipUi}=false`,
  ];
  return `intent:#Intent;${fields.join(';')};end`;
}

/** `sms:` link (RFC 5724) that opens the Messages app with the number and the body filled in. */
export function smsUri(details: SmsDetails): string {
  // `to` is checked to be digits with an optional +, which RFC 5724 writes as is (sms:+1510...).
  return `sms:${details.to}?body=${encodeURIComponent(details.body)}`;
}

/** Only Android opens these links as meant (iOS has no intent: and another sms: body form). */
export function isAndroid(userAgent: string): boolean {
  return /\bAndroid\b/i.test(userAgent);
}
