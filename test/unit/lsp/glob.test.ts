import { describe, expect, it } from 'vitest';
import { globToRegExp } from '../../../electron/host/lsp/glob';

describe('watcher globs', () => {
  it('matches the patterns servers register: **, *, ?, {a,b}, [..], bare basenames', () => {
    const cases: [string, string, boolean][] = [
      ['**/*.{py,pyi}', 'pkg/util.py', true],
      ['**/*.{py,pyi}', 'top.pyi', true],
      ['**/*.{py,pyi}', 'pkg/util.pyc', false],
      ['**/pyproject.toml', 'pyproject.toml', true],
      ['pyrightconfig.json', 'sub/pyrightconfig.json', true],
      ['src/*.go', 'src/a.go', true],
      ['src/*.go', 'src/x/a.go', false],
      ['**/go.mo?', 'go.mod', true],
      ['**/file[0-9].rs', 'a/file7.rs', true],
      ['**/file[0-9].rs', 'a/fileX.rs', false],
    ];
    for (const [glob, path, expected] of cases)
      expect([glob, path, globToRegExp(glob).test(path)]).toEqual([glob, path, expected]);
  });
});
