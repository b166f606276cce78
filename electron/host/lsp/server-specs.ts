import { extname } from 'node:path';
import type { AgentConfig } from '../config/schema';

// The language servers the seed names, with their root markers, merged with
// `agent.lsp.servers.NAME` from the config (a config entry overrides a built-in field by field,
// or adds a server of its own when it names a command and extensions).

export interface ServerSpec {
  name: string;
  command: string[];
  /** Lower-case, with the leading dot. */
  extensions: string[];
  rootMarkers: string[];
  /** The LSP languageId sent with didOpen for a file of this extension. */
  languageId(ext: string): string;
  /**
   * Ask for diagnostics (textDocument/diagnostic) instead of waiting for a push. Pyright answers
   * pulls without advertising them, and a pull reflects changes to other files, which a push
   * versioned by the document's own version does not say.
   */
  pullDiagnostics?: boolean;
}

type LspConfig = AgentConfig['lsp'];

const TS_LANGUAGE_IDS: Record<string, string> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
};

const BUILTIN: ServerSpec[] = [
  {
    name: 'pyright',
    command: ['pyright-langserver', '--stdio'],
    extensions: ['.py', '.pyi'],
    rootMarkers: ['pyproject.toml', 'setup.py', 'setup.cfg', 'pyrightconfig.json'],
    languageId: () => 'python',
    pullDiagnostics: true,
  },
  {
    name: 'typescript-language-server',
    command: ['typescript-language-server', '--stdio'],
    extensions: Object.keys(TS_LANGUAGE_IDS),
    rootMarkers: ['tsconfig.json', 'package.json'],
    languageId: (ext) => TS_LANGUAGE_IDS[ext] ?? 'typescript',
  },
  {
    name: 'gopls',
    command: ['gopls'],
    extensions: ['.go'],
    rootMarkers: ['go.mod'],
    languageId: () => 'go',
  },
  {
    name: 'rust-analyzer',
    command: ['rust-analyzer'],
    extensions: ['.rs'],
    rootMarkers: ['Cargo.toml'],
    languageId: () => 'rust',
  },
];

export interface ServerSpecs {
  /** Enabled servers; a config-defined server comes before the built-ins so it wins an extension. */
  specs: ServerSpec[];
  /** Config entries that could not be used, each naming the key and what it lacks. */
  problems: string[];
}

function normalizeExt(ext: string): string {
  const lower = ext.toLowerCase();
  return lower.startsWith('.') ? lower : `.${lower}`;
}

export function buildServerSpecs(lsp: LspConfig): ServerSpecs {
  const specs: ServerSpec[] = [];
  const problems: string[] = [];
  const configured = lsp.servers;
  for (const [name, entry] of Object.entries(configured)) {
    if (BUILTIN.some((b) => b.name === name) || entry.disabled) continue;
    const missing = [!entry.command && 'command', !entry.extensions?.length && 'extensions'].filter(
      Boolean,
    );
    if (missing.length) {
      problems.push(`agent.lsp.servers.${name} is missing ${missing.join(' and ')}`);
      continue;
    }
    const languageId = entry.language_id ?? name;
    specs.push({
      name,
      command: entry.command!,
      extensions: entry.extensions!.map(normalizeExt),
      rootMarkers: entry.root_markers ?? [],
      languageId: () => languageId,
    });
  }
  for (const builtin of BUILTIN) {
    const override = configured[builtin.name];
    if (override?.disabled) continue;
    const languageId = override?.language_id;
    specs.push({
      name: builtin.name,
      command: override?.command ?? builtin.command,
      extensions: override?.extensions?.map(normalizeExt) ?? builtin.extensions,
      rootMarkers: override?.root_markers ?? builtin.rootMarkers,
      languageId: languageId ? () => languageId : builtin.languageId,
      pullDiagnostics: builtin.pullDiagnostics,
    });
  }
  return { specs, problems };
}

export function specForFile(specs: ServerSpec[], file: string): ServerSpec | undefined {
  const ext = extname(file).toLowerCase();
  return ext ? specs.find((s) => s.extensions.includes(ext)) : undefined;
}
