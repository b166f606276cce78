import type { PhoneTool } from './phone-tool';

/** How long the wake screen stays up unless tapped. */
const WAKE_SHOW_MS = 15_000;
const VIBRATION_PATTERN_MS = [400, 200, 400, 200, 400];

/**
 * Sound and vibration need a tap on the page first (autoplay and vibration policies), so the
 * alarm is unlocked by the first tap and the wake tool is declared only after it.
 */
export class WakeAlarm {
  private audio: AudioContext | undefined;
  private tapped = false;

  constructor(private readonly screen: { show(text: string): void; hide(): void }) {}

  get ready(): boolean {
    return this.tapped;
  }

  /** From a tap: the one moment browsers let a page start audio. */
  unlock(): void {
    this.tapped = true;
    if (!this.audio && typeof AudioContext === 'function') this.audio = new AudioContext();
    void this.audio?.resume().catch(() => undefined);
  }

  ring(
    text: string,
    vibrate: boolean,
    sound: boolean,
  ): { vibrated: boolean; sound_played: boolean } {
    this.screen.show(text);
    setTimeout(() => this.screen.hide(), WAKE_SHOW_MS);
    const vibrated =
      vibrate && typeof navigator.vibrate === 'function' && navigator.vibrate(VIBRATION_PATTERN_MS);
    return { vibrated, sound_played: sound && this.beep() };
  }

  private beep(): boolean {
    const ctx = this.audio;
    if (!ctx || ctx.state !== 'running') return false;
    for (let i = 0; i < 3; i++) {
      const start = ctx.currentTime + i * 0.45;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.4, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + 0.35);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + 0.4);
    }
    return true;
  }
}

export function wakeTool(alarm: WakeAlarm): PhoneTool {
  return {
    tool_id: 'device_wake',
    description:
      'Gets the attention of the person holding the phone: a full-screen message, vibration and a sound.',
    parameters: {
      type: 'object',
      properties: {
        message: {
          type: 'string',
          maxLength: 200,
          description: 'Shown in large type. Default "Your agent is calling".',
        },
        vibrate: { type: 'boolean', description: 'Default true.' },
        sound: { type: 'boolean', description: 'Default true.' },
      },
      additionalProperties: false,
    },
    available: async () => alarm.ready,
    run: async (args) => {
      const text =
        typeof args.message === 'string' && args.message ? args.message : 'Your agent is calling';
      return { shown: true, ...alarm.ring(text, args.vibrate !== false, args.sound !== false) };
    },
  };
}
