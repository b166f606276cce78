import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Parser, Tree } from 'web-tree-sitter';
import { moduleDir } from '../lsp/resolve-command';
import { BASH_WASM, RUNTIME_WASM, WASM_DIR } from './constants';

// Bash's grammar, as the permission rules read commands: tree-sitter-bash compiled to WebAssembly,
// run by web-tree-sitter. No native module (the Electron rebuild never sees it); both .wasm files
// are read as bytes, so the same code works from the sources (node_modules), from dist/ (the
// build copies them to dist/tree-sitter/) and from inside the packaged app's asar archive.

/** A .wasm file: beside the bundle, else in the package that ships it (the source tree). */
function wasmFile(name: string, pkg: string): string {
  const dir = moduleDir();
  const bundled = join(dir, WASM_DIR, name);
  if (existsSync(bundled)) return bundled;
  for (let d = dir; ; d = dirname(d)) {
    const candidate = join(d, 'node_modules', pkg, name);
    if (existsSync(candidate)) return candidate;
    if (dirname(d) === d) break;
  }
  throw new Error(
    `${name} was not found beside ${dir} nor in node_modules/${pkg}: rebuild with npm run build`,
  );
}

export class BashParser {
  private constructor(private readonly parser: Parser) {}

  /** Loads the runtime and the grammar (tens of milliseconds): do it once and keep the parser. */
  static async load(): Promise<BashParser> {
    // Imported here, not at the top: its 150 KB of Emscripten glue is the largest module the host
    // would otherwise compile before `mewbo serve` answers its first request (#26 part 4).
    const { Language, Parser } = await import('web-tree-sitter');
    await Parser.init({ wasmBinary: readFileSync(wasmFile(RUNTIME_WASM, 'web-tree-sitter')) });
    const bash = await Language.load(readFileSync(wasmFile(BASH_WASM, 'tree-sitter-bash')));
    const parser = new Parser();
    parser.setLanguage(bash);
    return new BashParser(parser);
  }

  /** The syntax tree of `text`, given to `use`, then freed (trees live in WebAssembly memory). */
  read<T>(text: string, use: (tree: Tree) => T): T {
    const tree = this.parser.parse(text);
    if (!tree) throw new Error('the bash parser returned no tree');
    try {
      return use(tree);
    } finally {
      tree.delete();
    }
  }
}
