import type { LinkPrompts, PromptAnswer } from '../link-prompts';
import {
  alarmDetails,
  alarmIntentUri,
  isAndroid,
  MAX_ALARM_LABEL_CHARS,
  MAX_SMS_BODY_CHARS,
  smsDetails,
  smsUri,
} from './intent-uri';
import type { PhoneTool } from './phone-tool';

// device_set_alarm and device_send_sms: a prompt with the details and a link into the Clock or
// Messages app, which the person taps. Declared on Android only, where those links work. The
// result says whether the link was tapped, never that an alarm was set or a text sent: the page
// cannot see into the other app.

const onAndroid = async () => isAndroid(navigator.userAgent);
const pad = (n: number) => String(n).padStart(2, '0');

/** What the model reads: only what the page saw. */
function noteFor(answer: PromptAnswer, app: string, what: string, done: string): string {
  if (answer.tapped)
    return `The person tapped the link that opens the ${app} app with this ${what}; the page cannot know whether they ${done} it.`;
  return answer.why === 'dismissed'
    ? `The person chose "Not now": the ${app} app was not opened.`
    : `The person did not tap the link while the call waited; the prompt stays on the phone, so they may still open it later.`;
}

export function setAlarmTool(prompts: LinkPrompts): PhoneTool {
  return {
    tool_id: 'device_set_alarm',
    description:
      "Asks the person to set an alarm on their Android phone: the phone shows the time and label with a link that opens the Clock app with the alarm filled in, and the person saves it there. The result says only whether they tapped the link (tapped), not whether the alarm was saved; don't claim it was set.",
    parameters: {
      type: 'object',
      properties: {
        hour: { type: 'integer', minimum: 0, maximum: 23, description: '0-23, phone local time.' },
        minute: { type: 'integer', minimum: 0, maximum: 59 },
        label: {
          type: 'string',
          maxLength: MAX_ALARM_LABEL_CHARS,
          description: 'The alarm’s name, shown when it rings.',
        },
      },
      required: ['hour', 'minute'],
      additionalProperties: false,
    },
    available: onAndroid,
    run: async (args) => {
      const details = alarmDetails(args);
      const answer = await prompts.ask({
        title: 'Set an alarm',
        rows: [
          ['Time', `${pad(details.hour)}:${pad(details.minute)}`],
          ...(details.label ? [['Label', details.label] as [string, string]] : []),
        ],
        href: alarmIntentUri(details),
        linkText: 'Open Clock to set it',
        hint: 'Your Clock app opens with this alarm filled in; check it and save it there.',
      });
      return {
        prompt_shown: true,
        tapped: answer.tapped,
        ...details,
        note: noteFor(answer, 'Clock', 'alarm', 'saved'),
      };
    },
  };
}

export function sendSmsTool(prompts: LinkPrompts): PhoneTool {
  return {
    tool_id: 'device_send_sms',
    description:
      "Asks the person to send a text message from their Android phone: the phone shows the number and the text with a link that opens the Messages app filled in, and the person sends it there. The result says only whether they tapped the link (tapped), not whether the text was sent; don't claim it was.",
    parameters: {
      type: 'object',
      properties: {
        to: {
          type: 'string',
          minLength: 3,
          maxLength: 40,
          description: 'One phone number: digits with an optional leading +.',
        },
        body: { type: 'string', minLength: 1, maxLength: MAX_SMS_BODY_CHARS },
      },
      required: ['to', 'body'],
      additionalProperties: false,
    },
    available: onAndroid,
    run: async (args) => {
      const details = smsDetails(args);
      const answer = await prompts.ask({
        title: 'Send a text',
        rows: [
          ['To', details.to],
          ['Text', details.body],
        ],
        href: smsUri(details),
        linkText: 'Open Messages to send it',
        hint: 'Your Messages app opens with this text filled in; you send it there.',
      });
      return {
        prompt_shown: true,
        tapped: answer.tapped,
        ...details,
        note: noteFor(answer, 'Messages', 'text', 'sent'),
      };
    },
  };
}
