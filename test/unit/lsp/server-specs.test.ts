import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import { buildServerSpecs, specForFile } from '../../../electron/host/lsp/server-specs';

const lspConfig = (lsp: Record<string, unknown> = {}) => parseConfig({ agent: { lsp } }).agent.lsp;

describe('server specs', () => {
  it('the built-ins are the seed servers with its commands and root markers', () => {
    const { specs } = buildServerSpecs(lspConfig());
    const summary = Object.fromEntries(
      specs.map((s) => [s.name, [s.command.join(' '), s.rootMarkers]]),
    );
    expect(summary).toEqual({
      pyright: [
        'pyright-langserver --stdio',
        ['pyproject.toml', 'setup.py', 'setup.cfg', 'pyrightconfig.json'],
      ],
      'typescript-language-server': [
        'typescript-language-server --stdio',
        ['tsconfig.json', 'package.json'],
      ],
      gopls: ['gopls', ['go.mod']],
      'rust-analyzer': ['rust-analyzer', ['Cargo.toml']],
    });
  });

  it('picks the server by extension, case-insensitively, with a language id per extension', () => {
    const { specs } = buildServerSpecs(lspConfig());
    expect(specForFile(specs, '/p/App.TSX')?.name).toBe('typescript-language-server');
    expect(specForFile(specs, '/p/App.tsx')?.languageId('.tsx')).toBe('typescriptreact');
    expect(specForFile(specs, '/p/main.go')?.languageId('.go')).toBe('go');
    expect(specForFile(specs, '/p/Makefile')).toBeUndefined();
  });

  it('a config entry overrides a built-in field by field and can disable it', () => {
    const { specs } = buildServerSpecs(
      lspConfig({
        servers: {
          pyright: { command: ['basedpyright-langserver', '--stdio'] },
          gopls: { disabled: true },
        },
      }),
    );
    const pyright = specs.find((s) => s.name === 'pyright')!;
    expect(pyright.command).toEqual(['basedpyright-langserver', '--stdio']);
    expect(pyright.rootMarkers).toContain('pyproject.toml');
    expect(specs.some((s) => s.name === 'gopls')).toBe(false);
  });

  it('a custom server wins its extensions over a built-in; an incomplete one is reported by key', () => {
    const { specs, problems } = buildServerSpecs(
      lspConfig({
        servers: {
          deno: {
            command: ['deno', 'lsp'],
            extensions: ['ts'],
            root_markers: ['deno.json'],
            language_id: 'typescript',
          },
          half: { command: ['x'] },
        },
      }),
    );
    const spec = specForFile(specs, '/p/a.ts')!;
    expect([spec.name, spec.languageId('.ts'), spec.rootMarkers]).toEqual([
      'deno',
      'typescript',
      ['deno.json'],
    ]);
    expect(problems).toEqual(['agent.lsp.servers.half is missing extensions']);
  });
});
