import { mkdir, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../store/atomic-json';
import { z } from 'zod';
import { matchesHash, randomId, randomToken, sha256Hex } from './tokens';
import PQueue from 'p-queue';

// The paired devices, in $MEWBO_HOME/state/devices.json (0600, replaced atomically). Tokens are
// kept only as sha256. Also remembers the port the listener picked, so the phone page's origin
// (and with it the token in its localStorage) survives a restart.

const toolSummary = z.object({ tool_id: z.string(), description: z.string() });
const recordSchema = z.object({
  device_id: z.string(),
  name: z.string(),
  token_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  paired_at: z.number(),
  last_seen: z.number().nullable(),
  tools: z.array(toolSummary).default([]),
  /** Rights the user granted this device (off by default; files from before them have neither). */
  remote: z.boolean().default(false),
  screen_control: z.boolean().default(false),
});
export type DeviceRecord = z.infer<typeof recordSchema>;
export type ToolSummary = z.infer<typeof toolSummary>;

const fileSchema = z.object({
  version: z.literal(1),
  listen_port: z.number().int().min(1).max(65535).nullable().default(null),
  devices: z.array(recordSchema),
});
type DevicesFile = z.infer<typeof fileSchema>;

export class DeviceStore {
  private readonly writing = new PQueue({ concurrency: 1 });

  private constructor(
    private readonly file: string,
    private data: DevicesFile,
  ) {}

  /** Reads the file; a missing one is empty, a corrupt one is moved aside (never half-trusted). */
  static async open(file: string): Promise<DeviceStore> {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const empty: DevicesFile = { version: 1, listen_port: null, devices: [] };
    if (text === undefined) return new DeviceStore(file, empty);
    let parsed: DevicesFile | undefined;
    try {
      parsed = fileSchema.parse(JSON.parse(text));
    } catch (err) {
      const aside = `${file}.corrupt-${Date.now()}`;
      await rename(file, aside);
      console.error(
        `devices: ${file} was unreadable (${(err as Error).message}); moved to ${aside}`,
      );
    }
    return new DeviceStore(file, parsed ?? empty);
  }

  list(): readonly DeviceRecord[] {
    return this.data.devices;
  }

  get(deviceId: string): DeviceRecord | undefined {
    return this.data.devices.find((d) => d.device_id === deviceId);
  }

  /** Pairs a new device; resolves once it is on disk, with the only copy of its token. */
  async add(
    name: string,
    now: number,
    grant: { remote: boolean } = { remote: false },
  ): Promise<{ record: DeviceRecord; token: string }> {
    const token = randomToken();
    const record: DeviceRecord = {
      device_id: randomId('dev'),
      name,
      token_sha256: sha256Hex(token),
      paired_at: now,
      last_seen: now,
      tools: [],
      remote: grant.remote,
      screen_control: false,
    };
    this.data.devices.push(record);
    await this.save();
    return { record, token };
  }

  /** The device whose id and token match, or undefined (unknown, revoked or wrong token alike). */
  authenticate(deviceId: string, token: string): DeviceRecord | undefined {
    const record = this.get(deviceId);
    return record && matchesHash(token, record.token_sha256) ? record : undefined;
  }

  async remove(deviceId: string): Promise<boolean> {
    const before = this.data.devices.length;
    this.data.devices = this.data.devices.filter((d) => d.device_id !== deviceId);
    if (this.data.devices.length === before) return false;
    await this.save();
    return true;
  }

  /** In memory only; the owner persists with save() on its own schedule. */
  touch(deviceId: string, now: number): void {
    const record = this.get(deviceId);
    if (record) record.last_seen = now;
  }

  setTools(deviceId: string, tools: ToolSummary[]): void {
    const record = this.get(deviceId);
    if (record) record.tools = tools;
  }

  /** Changes a device's rights; resolves once on disk. Undefined when the device is unknown. */
  async setRights(
    deviceId: string,
    rights: { remote?: boolean; screen_control?: boolean },
  ): Promise<DeviceRecord | undefined> {
    const record = this.get(deviceId);
    if (!record) return undefined;
    if (rights.remote !== undefined) record.remote = rights.remote;
    if (rights.screen_control !== undefined) record.screen_control = rights.screen_control;
    await this.save();
    return record;
  }

  get listenPort(): number | null {
    return this.data.listen_port;
  }

  async setListenPort(port: number): Promise<void> {
    if (this.data.listen_port === port) return;
    this.data.listen_port = port;
    await this.save();
  }

  /** Resolves once every write asked for so far has finished (or failed and been logged). */
  flush(): Promise<void> {
    return this.writing.onIdle();
  }

  /** Writes are serialized; each writes the state as of when it runs. */
  save(): Promise<void> {
    const next = this.writing.add(() =>
      writeFileAtomic(this.file, `${JSON.stringify(this.data, null, 2)}\n`, { mode: 0o600 }),
    );
    next.catch((err: unknown) => {
      console.error(`devices: could not write ${this.file}: ${(err as Error).message}`);
    });
    return next;
  }
}
