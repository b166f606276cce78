import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { RulesService } from '../../../electron/host/rules/rules-service';
import { editRules } from '../../../electron/host/rules/write-settings';
import { writeFileAtomic } from '../../../electron/host/store/atomic-json';
import { Harness, ofType } from '../../integration/agent/harness';
import { tempDir } from '../../helpers/temp';
import { countLeaks, makeSwapper, stopRacer, unswap } from './swap-racer';
import { TRUST_ALL_PROJECTS } from '../../helpers/project-trust';

// Issue #25, part 6: "Always allow in this project" wrote through a symlink the agent planted at
// `.mewbo/settings.json`: the writer read the link's target (the app's secrets.json) and wrote it,
// plus the new rule, into the project. Each attack first runs against the old writer (read by
// name, edit, atomic write by name) to show it works, then against the real one.

const SECRET = 'sk-ant-SECRET-FROM-APP-HOME-61c2';
/** Attempts of the unprotected control under the racer before giving up on seeing it leak. */
const CONTROL_ATTEMPTS = 3000;
const CONTROL_LEAKS_ENOUGH = 2;
/** "Always allow" clicks the real writer makes under the racer. */
const PROTECTED_ATTEMPTS = 400;

/** The writer before issue #25: the file read by name (following a link), then replaced by name. */
async function unprotectedAddRule(file: string, rule: string): Promise<void> {
  let raw: Record<string, unknown> = {};
  try {
    raw = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  editRules(raw, 'allow', rule, 'add');
  await writeFileAtomic(file, `${JSON.stringify(raw, null, 2)}\n`);
}

let h: Harness | undefined;
let racer: ChildProcess | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  if (racer) await stopRacer(racer);
  racer = undefined;
  await h?.close();
  h = undefined;
  for (const c of cleanups.splice(0)) c();
});

function plantSecret(home: string): string {
  const secrets = join(home, 'configs', 'secrets.json');
  writeFileSync(secrets, JSON.stringify({ version: 1, secrets: { anthropic: SECRET } }));
  return secrets;
}

function plantLink(project: string, target: string): string {
  const settings = join(project, '.mewbo', 'settings.json');
  mkdirSync(dirname(settings), { recursive: true });
  symlinkSync(target, settings);
  return settings;
}

/** A session in the trusted project waiting on an approval whose suggested rule can be added. */
async function waitingApproval(harness: Harness) {
  await harness.invoke('trust.grant', { path: harness.project });
  harness.script.push(
    { toolCalls: [{ name: 'aider_shell_tool', args: { command: 'echo hi' } }] },
    { text: 'done' },
  );
  const id = await harness.newSession();
  await harness.send(id, 'say hi');
  const waiting = await harness.waitFor(
    id,
    (ev) => ev.some((e) => e.type === 'approval_request'),
    'the approval',
  );
  const request = ofType(waiting, 'approval_request')[0]!;
  expect(request.suggested_rule).toBe('aider_shell_tool(echo hi:*)');
  return { id, request };
}

/** The user's "Always allow in this project" click; the refusal it meets. */
function alwaysAllowInProject(harness: Harness, id: string, approvalId: string) {
  return harness.invokeError('agent.decideApproval', {
    id,
    approval_id: approvalId,
    decision: 'allow',
    always: 'project',
  });
}

describe('part 6: settings writes never follow a link', () => {
  it('unprotected: the old writer copies configs/secrets.json into the project through a planted link', async () => {
    h = await Harness.start();
    const secrets = plantSecret(h.home);
    const settings = plantLink(h.project, secrets);
    await unprotectedAddRule(settings, 'aider_shell_tool(echo hi)');
    expect(lstatSync(settings).isSymbolicLink()).toBe(false);
    expect(readFileSync(settings, 'utf8')).toContain(SECRET);
  });

  it('"Always allow in this project" refuses a link to configs/secrets.json, names it, and copies nothing', async () => {
    h = await Harness.start();
    const secrets = plantSecret(h.home);
    const before = readFileSync(secrets, 'utf8');
    const settings = plantLink(h.project, secrets);
    const { id, request } = await waitingApproval(h);
    const err = await alwaysAllowInProject(h, id, request.approval_id);
    expect(err.code).toBe('rule_failed');
    expect(err.message).toContain(settings);
    expect(err.message).toContain('is a symbolic link');
    expect(lstatSync(settings).isSymbolicLink()).toBe(true);
    expect(readFileSync(secrets, 'utf8')).toBe(before);
    // Nothing beside the link (a temp file, a copy) holds the secret.
    for (const f of readdirSync(join(h.project, '.mewbo')).filter((f) => f !== 'settings.json'))
      expect(readFileSync(join(h.project, '.mewbo', f), 'utf8')).not.toContain('sk-ant-SECRET');
    // The approval is still open: the user can allow it once.
    await h.invoke('agent.decideApproval', {
      id,
      approval_id: request.approval_id,
      decision: 'deny',
    });
  });

  it('a link to a file outside the project: shown copied by the old writer, refused by the real one', async () => {
    h = await Harness.start();
    const outside = tempDir('mewbo-outside-');
    cleanups.push(outside.cleanup);
    const target = join(outside.dir, 'deploy.json');
    writeFileSync(target, JSON.stringify({ token: SECRET }));
    const settings = plantLink(h.project, target);
    const control = join(h.project, 'control');
    mkdirSync(join(control, '.mewbo'), { recursive: true });
    symlinkSync(target, join(control, '.mewbo', 'settings.json'));
    await unprotectedAddRule(join(control, '.mewbo', 'settings.json'), 'Bash(ls)');
    expect(readFileSync(join(control, '.mewbo', 'settings.json'), 'utf8')).toContain(SECRET);

    const { id, request } = await waitingApproval(h);
    const err = await alwaysAllowInProject(h, id, request.approval_id);
    expect(err.message).toContain('is a symbolic link');
    expect(lstatSync(settings).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({ token: SECRET });
    await h.invoke('agent.decideApproval', {
      id,
      approval_id: request.approval_id,
      decision: 'deny',
    });
  });

  it('a hard link to the secret at .mewbo/settings.json is refused too (its content is the secret)', async () => {
    h = await Harness.start();
    const secrets = plantSecret(h.home);
    const settings = join(h.project, '.mewbo', 'settings.json');
    mkdirSync(dirname(settings));
    // Same file system (both under the test's temp root), as an unconfined shell could do.
    linkSync(secrets, settings);
    const { id, request } = await waitingApproval(h);
    const err = await alwaysAllowInProject(h, id, request.approval_id);
    expect(err.message).toContain('hard links');
    expect(readFileSync(settings, 'utf8')).not.toContain('aider_shell_tool');
    await h.invoke('agent.decideApproval', {
      id,
      approval_id: request.approval_id,
      decision: 'deny',
    });
  });
});

describe.skipIf(process.platform !== 'linux')(
  'part 6: the parent swapped for a link mid-write',
  () => {
    function world() {
      const t = tempDir('mewbo-settings-race-');
      cleanups.push(t.cleanup);
      const base = realpathSync(t.dir);
      const project = join(base, 'project');
      const outside = join(base, 'outside');
      mkdirSync(join(project, '.mewbo'), { recursive: true });
      mkdirSync(outside);
      writeFileSync(join(outside, 'keep.json'), '{}');
      // .mewbo (a real directory) <-> alt (a link to a directory outside the project).
      symlinkSync(outside, join(project, 'alt'));
      const tools = join(base, 'racer');
      mkdirSync(tools);
      const swapper = makeSwapper(tools, join(project, '.mewbo'), join(project, 'alt'));
      const landedOutside = () => readdirSync(outside).filter((f) => f !== 'keep.json');
      const start = () => (racer = swapper!.start(join(project, '.mewbo'), join(project, 'alt')));
      const stop = async () => {
        await stopRacer(racer!);
        racer = undefined;
        unswap(join(project, '.mewbo'), join(project, 'alt'));
      };
      return { project, outside, swapper, landedOutside, start, stop };
    }

    it('unprotected: the old writer lands settings.json in the directory the link points at', async (t) => {
      const w = world();
      if (!w.swapper) t.skip('no renameat2(RENAME_EXCHANGE) here');
      w.start();
      const { leaks, attempts } = await countLeaks(
        CONTROL_ATTEMPTS,
        CONTROL_LEAKS_ENOUGH,
        async () => {
          await unprotectedAddRule(
            join(w.project, '.mewbo', 'settings.json'),
            `Bash(n${Math.random()})`,
          ).catch(() => undefined);
          return existsSync(join(w.outside, 'settings.json'));
        },
      );
      await w.stop();
      console.log(
        `unprotected settings write: ${leaks} leaks in ${attempts} attempts (${w.swapper!.how})`,
      );
      expect(leaks).toBeGreaterThan(0);
    });

    it('protected: no "Always allow" under the racer writes or creates anything outside the project', async (t) => {
      const w = world();
      if (!w.swapper) t.skip('no renameat2(RENAME_EXCHANGE) here');
      const rules = new RulesService({
        configFile: join(w.project, '..', 'app.json'),
        trust: TRUST_ALL_PROJECTS,
        env: {},
        updateUserConfig: () => Promise.reject(new Error('not used')),
      });
      w.start();
      let landed = 0;
      let refused = 0;
      for (let i = 0; i < PROTECTED_ATTEMPTS; i++) {
        await rules
          .addRule('project', 'allow', `Bash(echo ${i})`, { root: w.project })
          .then(() => landed++)
          .catch((err: Error) => {
            expect(err.name, err.message).toBe('SettingsFileError');
            refused++;
          });
      }
      await w.stop();
      console.log(`protected settings write under the racer: ${landed} landed, ${refused} refused`);
      expect(w.landedOutside()).toEqual([]);
      expect(landed + refused).toBe(PROTECTED_ATTEMPTS);
    });
  },
);
