import type { HostFrameOf } from '../../shared/device/frames';
import { MAX_FRAME_BYTES } from '../../shared/device/limits';
import { DeviceLink, type CallAnswer, type LinkState } from './device-link';
import { LinkPrompts } from './link-prompts';
import { RemoteClient, REMOTE_VERSION } from './remote/remote-client';
import { RemoteView } from './remote/remote-view';
import { clearCredentials, loadCredentials, saveCredentials } from './storage';
import { requestClipboard } from './tools/clipboard';
import { requestLocation } from './tools/location';
import { notificationsGranted, requestNotifications } from './tools/notify';
import { permissionState, ToolFailure, watchPermission, type PhoneTool } from './tools/phone-tool';
import { allPhoneTools, permittedTools } from './tools/registry';
import { SCREEN_GATE_ON_TEXT, SCREEN_UNSUPPORTED_TEXT, screenRefusal } from './tools/screen';
import { WakeAlarm } from './tools/wake';

// The page the pairing QR code opens. It pairs with the code from the URL fragment, keeps its
// token in localStorage, declares what the browser permits, and runs the agent's calls.

/** A call's own deadline, inside the host's 30 s window (clocks of phone and desktop differ). */
const CALL_DEADLINE_MS = 28_000;
/** Requests kept on screen. */
const ACTIVITY_ROWS = 10;
/** PROTOCOL.md: the socket closes with this when the user revokes the remote right. */
const REMOTE_REVOKED_CLOSE = 4005;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function boot(): void {
  const ui = {
    state: $('state'),
    form: $<HTMLFormElement>('pair-form'),
    code: $<HTMLInputElement>('code'),
    name: $<HTMLInputElement>('device-name'),
    fingerprint: $('fingerprint-hint'),
    toolsSection: $('tools-section'),
    tools: $('tools'),
    grants: $('grants'),
    activitySection: $('activity-section'),
    activity: $('activity'),
    forget: $<HTMLButtonElement>('forget'),
    overlay: $('wake-overlay'),
    overlayText: $('wake-text'),
    prompts: $('prompts'),
    remote: {
      section: $('remote'),
      title: $('remote-title'),
      empty: $('remote-empty'),
      items: $('remote-items'),
      more: $('remote-more'),
      sessions: $('remote-sessions'),
      notifyGrant: $<HTMLButtonElement>('remote-notify-grant'),
    },
    screenNote: $('screen-note'),
  };
  ui.screenNote.textContent = SCREEN_UNSUPPORTED_TEXT;
  const params = new URLSearchParams(location.hash.slice(1));
  const alarm = new WakeAlarm({
    show: (text) => {
      ui.overlayText.textContent = text;
      ui.overlay.hidden = false;
    },
    hide: () => (ui.overlay.hidden = true),
  });
  ui.overlay.addEventListener('click', () => (ui.overlay.hidden = true));
  const every = allPhoneTools(alarm, new LinkPrompts(ui.prompts));
  let offered: PhoneTool[] = [];

  /** Whether the desktop speaks the remote version this page does (from welcome/paired). */
  let remoteVersionOk = false;
  // Remote frames go out on the link's socket; the link is made just below.
  const remote = new RemoteClient((frame) => link.send(frame), {
    onSnapshot: (snapshot) => remoteView.render(snapshot),
    onNotify: (frame) => remoteView.alert(frame),
    onChanged: () => remoteView.refreshOpen(),
  });
  const remoteView = new RemoteView(ui.remote, {
    client: remote,
    canNotify: notificationsGranted,
    askToNotify: requestNotifications,
  });

  /** The remote right ended: every remote item leaves the page now, and the page says why. */
  const endRemote = () => {
    remote.stop();
    if (remoteView.clear()) note('Remote access was turned off on the desktop.');
  };

  const link = new DeviceLink({
    onState: (state) => showState(state),
    onPaired: (credentials) => {
      saveCredentials(credentials);
      // The code is used up; keep it out of the address bar and history.
      history.replaceState(null, '', location.pathname);
    },
    onForgotten: () => clearCredentials(),
    declaration: async () => {
      offered = await permittedTools(every);
      renderTools();
      return offered.map(({ tool_id, description, parameters }) => ({
        tool_id,
        description,
        parameters,
      }));
    },
    runCall: (call) => runCall(call),
    onDeclarationRejected: (reason) => note(`The desktop refused the tool list: ${reason}`),
    onRights: (rights, versions) => {
      ui.screenNote.textContent = rights.screen_control
        ? SCREEN_GATE_ON_TEXT
        : SCREEN_UNSUPPORTED_TEXT;
      ui.screenNote.dataset.tone = rights.screen_control ? 'warn' : '';
      // versions come with welcome/paired; a later rights frame keeps what welcome said.
      if (versions) remoteVersionOk = versions.includes(REMOTE_VERSION);
      if (rights.remote && remoteVersionOk) {
        remoteView.show();
        remote.start();
      } else {
        endRemote();
      }
    },
    onRemote: (frame) => remote.handle(frame),
    onSocketClosed: (code) => {
      remote.stop();
      // 4005: the remote right was revoked. Other closes keep the items, greyed, until the
      // reconnect's welcome says what this phone may still see.
      if (code === REMOTE_REVOKED_CLOSE) endRemote();
      else remoteView.setStale(true);
    },
  });

  async function runCall(call: HostFrameOf<'device_tool_call'>): Promise<CallAnswer> {
    const tool = offered.find((t) => t.tool_id === call.tool_id);
    let answer: CallAnswer;
    if (!tool) {
      answer = {
        error: screenRefusal(call.tool_id) ?? {
          code: 'unknown_tool',
          message: `${call.tool_id} is not offered by this phone now`,
        },
      };
    } else {
      answer = await withDeadline(tool.run(isRecord(call.args) ? call.args : {}));
    }
    if ('ok' in answer && JSON.stringify(answer.ok ?? null).length > MAX_FRAME_BYTES - 4096) {
      answer = {
        error: {
          code: 'result_too_large',
          message: 'the result does not fit in one frame (1 MiB)',
        },
      };
    }
    logActivity(call.tool_id, 'ok' in answer ? 'done' : `failed: ${answer.error.message}`);
    return answer;
  }

  function showState(state: LinkState): void {
    const text: Record<LinkState['kind'], string> = {
      unpaired: 'Not paired with a desktop.',
      connecting: 'Connecting to the desktop…',
      online: `Connected as “${state.kind === 'online' ? state.name : ''}”.`,
      offline: 'Disconnected.',
    };
    let line = text[state.kind];
    if (state.kind === 'unpaired' && state.reason) line = state.reason;
    if (state.kind === 'offline') {
      line = `${state.reason}. ${state.retryInMs === null ? 'Tap to reconnect.' : `Retrying in ${Math.ceil(state.retryInMs / 1000)} s.`}`;
    }
    ui.state.textContent = line;
    ui.state.dataset.tone =
      state.kind === 'online' ? 'ok' : state.kind === 'unpaired' && state.reason ? 'bad' : '';
    ui.form.hidden = state.kind !== 'unpaired';
    ui.toolsSection.hidden = state.kind !== 'online';
    ui.forget.hidden = state.kind === 'unpaired';
    if (state.kind === 'unpaired') {
      remote.stop();
      remoteView.clear();
    }
  }

  function renderTools(): void {
    ui.tools.replaceChildren(
      ...offered.map((tool) => {
        const li = document.createElement('li');
        const id = document.createElement('code');
        id.textContent = tool.tool_id;
        // The person reads the first clause; the model gets the whole description.
        li.append(id, ` — ${tool.description.split(/[.:](\s|$)/)[0]}`);
        return li;
      }),
    );
    void renderGrants();
  }

  async function renderGrants(): Promise<void> {
    const buttons: HTMLButtonElement[] = [];
    const offer = (label: string, request: () => Promise<void>) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = label;
      button.addEventListener('click', () => void request().then(() => link.redeclare()));
      buttons.push(button);
    };
    if (!alarm.ready) offer('Enable wake (sound and vibration)', async () => alarm.unlock());
    if ('geolocation' in navigator && (await permissionState('geolocation')) === 'prompt')
      offer('Allow location', requestLocation);
    if (
      typeof Notification === 'function' &&
      !notificationsGranted() &&
      Notification.permission !== 'denied'
    ) {
      offer('Allow notifications', requestNotifications);
    }
    if (navigator.clipboard && (await permissionState('clipboard-read')) === 'prompt')
      offer('Allow clipboard', requestClipboard);
    ui.grants.replaceChildren(...buttons);
  }

  function logActivity(toolId: string, outcome: string): void {
    ui.activitySection.hidden = false;
    const li = document.createElement('li');
    li.textContent = `${new Date().toLocaleTimeString()} ${toolId}: ${outcome}`;
    ui.activity.prepend(li);
    while (ui.activity.children.length > ACTIVITY_ROWS) ui.activity.lastElementChild?.remove();
  }

  function note(text: string): void {
    logActivity('desktop', text);
  }

  // The first tap anywhere unlocks sound and vibration, which adds the wake tool.
  document.addEventListener(
    'pointerdown',
    () => {
      if (alarm.ready) return;
      alarm.unlock();
      void link.redeclare();
    },
    { capture: true },
  );
  ui.state.addEventListener('click', () => {
    const credentials = loadCredentials();
    if (credentials) link.resume(credentials);
  });
  for (const name of ['geolocation', 'clipboard-read', 'clipboard-write', 'notifications']) {
    void watchPermission(name, () => void link.redeclare());
  }
  ui.form.addEventListener('submit', (event) => {
    event.preventDefault();
    alarm.unlock();
    link.pair(ui.code.value.trim(), ui.name.value.trim() || defaultName());
  });
  ui.forget.addEventListener('click', () => {
    if (confirm('Forget this desktop? You will need a new code to pair again.')) link.forget();
  });

  ui.code.value = params.get('code') ?? '';
  ui.name.value = defaultName();
  const fingerprint = params.get('fp');
  if (fingerprint) {
    ui.fingerprint.hidden = false;
    ui.fingerprint.textContent = `If your browser warned about this page's certificate, its SHA-256 fingerprint must be ${fingerprint} (as the desktop shows).`;
  }
  const credentials = loadCredentials();
  if (credentials) link.resume(credentials);
  else showState({ kind: 'unpaired' });
}

async function withDeadline(work: Promise<unknown>): Promise<CallAnswer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ToolFailure('device_timeout', 'the phone took too long')),
      CALL_DEADLINE_MS,
    );
  });
  try {
    return { ok: (await Promise.race([work, deadline])) ?? null };
  } catch (err) {
    if (err instanceof ToolFailure) return { error: { code: err.code, message: err.message } };
    return {
      error: { code: 'tool_failed', message: err instanceof Error ? err.message : String(err) },
    };
  } finally {
    clearTimeout(timer);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function defaultName(): string {
  const ua = navigator.userAgent;
  if (/iPhone/.test(ua)) return 'iPhone';
  if (/iPad/.test(ua)) return 'iPad';
  if (/Android/.test(ua)) return 'Android phone';
  return 'Phone';
}

boot();
