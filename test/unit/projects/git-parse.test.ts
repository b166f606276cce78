import { describe, expect, it } from 'vitest';
import { parseWorktreeList, repoSlug } from '../../../electron/host/projects/git';

describe('git worktree list --porcelain', () => {
  it('parses branches, detached heads, bare and prunable worktrees', () => {
    const out = [
      'worktree /src/app',
      'HEAD 1111111111111111111111111111111111111111',
      'branch refs/heads/main',
      '',
      'worktree /src/app-feature',
      'HEAD 2222222222222222222222222222222222222222',
      'branch refs/heads/feat/x',
      '',
      'worktree /src/app-detached',
      'HEAD 3333333333333333333333333333333333333333',
      'detached',
      'prunable gitdir file points to non-existent location',
      '',
      'worktree /src/bare.git',
      'bare',
      '',
    ].join('\n');
    expect(parseWorktreeList(out)).toEqual([
      {
        path: '/src/app',
        head: '1'.repeat(40),
        branch: 'main',
        bare: false,
        detached: false,
        prunable: false,
      },
      {
        path: '/src/app-feature',
        head: '2'.repeat(40),
        branch: 'feat/x',
        bare: false,
        detached: false,
        prunable: false,
      },
      {
        path: '/src/app-detached',
        head: '3'.repeat(40),
        branch: null,
        bare: false,
        detached: true,
        prunable: true,
      },
      {
        path: '/src/bare.git',
        head: null,
        branch: null,
        bare: true,
        detached: false,
        prunable: false,
      },
    ]);
  });

  it('keeps paths with spaces whole', () => {
    expect(
      parseWorktreeList('worktree /my projects/app one\nHEAD abc\nbranch refs/heads/main\n')[0]!
        .path,
    ).toBe('/my projects/app one');
  });
});

describe('repository slug from a remote URL', () => {
  it.each([
    ['git@github.com:acme/widgets.git', 'acme/widgets'],
    ['https://github.com/acme/widgets', 'acme/widgets'],
    ['https://github.com/acme/widgets.git/', 'acme/widgets'],
    ['ssh://git@gitlab.example.com:2222/group/sub/proj.git', 'sub/proj'],
    ['/srv/git/proj.git', 'git/proj'],
    ['proj', 'proj'],
  ])('%s -> %s', (url, slug) => {
    expect(repoSlug(url)).toBe(slug);
  });

  it('is null without a remote', () => {
    expect(repoSlug(null)).toBeNull();
    expect(repoSlug('')).toBeNull();
  });
});
