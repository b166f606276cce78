import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkSessionRoot,
  ForbiddenRootError,
  rootRefusal,
} from '../../../electron/host/sessions/session-root';
import { tempDir } from '../../helpers/temp';

// Where no session may act (issue #25, part 5), each rule on its own, compared by real path.

let t: ReturnType<typeof tempDir> | undefined;
afterEach(() => t?.cleanup());

function limits() {
  t = tempDir('mewbo-session-root-');
  const base = realpathSync(t.dir);
  const dirs = {
    base,
    appHome: join(base, 'user', '.mewbo'),
    installRoot: join(base, 'opt', 'mewbo'),
    userHome: join(base, 'user'),
    project: join(base, 'user', 'src', 'app'),
  };
  for (const d of [dirs.appHome, dirs.installRoot, dirs.project]) mkdirSync(d, { recursive: true });
  return dirs;
}

describe('session roots', () => {
  it('a project folder inside the home is fine; no project at all is fine', () => {
    const l = limits();
    expect(rootRefusal(l.project, l)).toBeNull();
    expect(() => checkSessionRoot(null, l)).not.toThrow();
  });

  it.each([
    ['/', /whole file system/],
    ['/home', /home directory itself/],
    ['/home/someone', /home directory itself/],
    ['/root', /home directory itself/],
  ])('%s is refused', (root, why) => {
    expect(rootRefusal(root, limits())).toMatch(why);
  });

  it("the user's home, $MEWBO_HOME, inside it, a folder holding it, and the install are refused", () => {
    const l = limits();
    expect(rootRefusal(l.userHome, { ...l, appHome: '/nowhere' })).toMatch(/home directory itself/);
    expect(rootRefusal(l.appHome, l)).toMatch(/app's own folder .* or inside it/);
    expect(rootRefusal(join(l.appHome, 'sessions'), l)).toMatch(/or inside it/);
    expect(rootRefusal(l.base, l)).toMatch(/holds the app's own folder/);
    expect(rootRefusal(l.installRoot, l)).toMatch(/app's install/);
    expect(rootRefusal(join(l.installRoot, 'dist'), l)).toMatch(/app's install/);
    expect(rootRefusal(join(l.base, 'opt'), { ...l, appHome: '/nowhere' })).toMatch(
      /app's install/,
    );
  });

  it('a link to $MEWBO_HOME is refused as $MEWBO_HOME; the error names the root as given', () => {
    const l = limits();
    const link = join(l.project, 'state');
    symlinkSync(l.appHome, link);
    expect(() => checkSessionRoot(link, l)).toThrow(ForbiddenRootError);
    expect(() => checkSessionRoot(link, l)).toThrow(`${link} cannot be a session's project root`);
  });
});
