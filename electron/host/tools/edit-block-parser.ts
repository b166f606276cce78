// Parses aider-style SEARCH/REPLACE blocks out of freeform text. Format (seed):
//
//   src/utils.py
//   ```python
//   <<<<<<< SEARCH
//   old lines
//   =======
//   new lines
//   >>>>>>> REPLACE
//   ```
//
// The filename is the line right before the opening fence; one fence may hold several blocks for
// that file. A fenced block with no SEARCH marker in a shell language is a command the model
// wanted run, which this tool refuses (commands go to the shell tool). Prose around blocks is ignored.

export interface EditBlock {
  /** 1-based position among the blocks of the call. */
  index: number;
  file: string;
  /** 1-based line of the SEARCH marker in the content. */
  line: number;
  /** Whole lines, each ending in "\n"; "" for an empty SEARCH. */
  search: string;
  replace: string;
}

export interface ParseResult {
  blocks: EditBlock[];
  /** Malformed blocks, each naming its line. */
  errors: string[];
  /** 1-based lines of shell code blocks found in the content. */
  shellBlocks: number[];
}

const SEARCH = /^<{5,9} SEARCH\s*$/;
const DIVIDER = /^={5,9}\s*$/;
const REPLACE = /^>{5,9} REPLACE\s*$/;
const FENCE = /^(`{3,}|~{3,})\s*([\w+#.-]*)\s*$/;
const SHELL_LANGUAGES = new Set([
  'bash',
  'sh',
  'shell',
  'zsh',
  'fish',
  'ksh',
  'csh',
  'console',
  'terminal',
  'shell-session',
  'sh-session',
  'shellsession',
  'powershell',
  'ps1',
  'pwsh',
  'cmd',
  'bat',
  'batch',
]);

const clean = (line: string): string => line.replace(/\r$/, '');

/**
 * The file path on a line, with the decoration models put around one (aider's clean-up: `#`,
 * backticks, asterisks, quotes, a trailing colon), or null for a line that is prose. A line with
 * spaces, or that ended in a colon, must look like a path (a slash or an extension) to count.
 */
export function filenameFrom(line: string): string | null {
  const raw = clean(line).trim();
  const colon = raw.endsWith(':');
  let name = raw.replace(/:$/, '').replace(/^#+/, '').trim();
  name = name
    .replace(/^[`*"']+/, '')
    .replace(/[`*"']+$/, '')
    .trim();
  if (
    name === '' ||
    name === '...' ||
    [SEARCH, DIVIDER, REPLACE, FENCE].some((re) => re.test(name))
  )
    return null;
  const pathLike = name.includes('/') || /\.[\w-]+$/.test(name);
  if ((colon || /\s/.test(name)) && !pathLike) return null;
  if (colon && /\s/.test(name)) return null;
  return name;
}

export function parseEditBlocks(content: string): ParseResult {
  const lines = content.split('\n');
  const result: ParseResult = { blocks: [], errors: [], shellBlocks: [] };

  /** Reads one block whose SEARCH marker is at `start`; returns the line after REPLACE. */
  const readBlock = (start: number, file: string | null, where: string): number => {
    const index = result.blocks.length + result.errors.length + 1;
    let i = start + 1;
    const search: string[] = [];
    while (i < lines.length && !DIVIDER.test(clean(lines[i]!))) {
      if (SEARCH.test(clean(lines[i]!)) || REPLACE.test(clean(lines[i]!))) break;
      search.push(lines[i++]!);
    }
    if (i >= lines.length || !DIVIDER.test(clean(lines[i]!))) {
      result.errors.push(
        `block ${index} (line ${start + 1}): <<<<<<< SEARCH has no ======= divider after it`,
      );
      return i;
    }
    i++;
    const replace: string[] = [];
    while (i < lines.length && !REPLACE.test(clean(lines[i]!))) {
      if (SEARCH.test(clean(lines[i]!)) || DIVIDER.test(clean(lines[i]!))) break;
      replace.push(lines[i++]!);
    }
    if (i >= lines.length || !REPLACE.test(clean(lines[i]!))) {
      result.errors.push(
        `block ${index} (line ${start + 1}): ======= has no >>>>>>> REPLACE after it`,
      );
      return i;
    }
    if (file === null) {
      result.errors.push(
        `block ${index} (line ${start + 1}): no filename; put the file path on its own line right before the opening fence ${where}`,
      );
      return i + 1;
    }
    const join = (ls: string[]): string => (ls.length ? `${ls.join('\n')}\n` : '');
    result.blocks.push({
      index,
      file,
      line: start + 1,
      search: join(search),
      replace: join(replace),
    });
    return i + 1;
  };

  let i = 0;
  while (i < lines.length) {
    const line = clean(lines[i]!);
    const fence = FENCE.exec(line.trim());
    if (fence && line.trim() === line.trimEnd()) {
      const file = i > 0 ? filenameFrom(lines[i - 1]!) : null;
      const close = new RegExp(`^${fence[1]![0] === '`' ? '`' : '~'}{${fence[1]!.length},}\\s*$`);
      let j = i + 1;
      let sawBlock = false;
      while (j < lines.length && !close.test(clean(lines[j]!).trim())) {
        if (SEARCH.test(clean(lines[j]!))) {
          sawBlock = true;
          j = readBlock(j, file, '(the line before it is not a file path)');
        } else j++;
      }
      if (!sawBlock && SHELL_LANGUAGES.has(fence[2]!.toLowerCase())) result.shellBlocks.push(i + 1);
      i = j + 1;
    } else if (SEARCH.test(line)) {
      // An unfenced block: the filename is the line right before the marker.
      i = readBlock(i, i > 0 ? filenameFrom(lines[i - 1]!) : null, '');
    } else if (REPLACE.test(line)) {
      result.errors.push(`line ${i + 1}: >>>>>>> REPLACE without a <<<<<<< SEARCH before it`);
      i++;
    } else i++;
  }
  return result;
}
