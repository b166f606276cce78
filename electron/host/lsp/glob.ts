// The glob syntax LSP servers register file watchers with (`**`, `*`, `?`, `{a,b}`, `[0-9]`),
// compiled to a RegExp over '/'-separated paths. Patterns without a '/' match the basename
// anywhere, as VS Code treats them.

function escape(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

export function globToRegExp(glob: string): RegExp {
  const pattern = glob.includes('/') ? glob : `**/${glob}`;
  let out = '';
  let inGroup = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*' && pattern[i + 1] === '*') {
      // `**/` matches zero or more whole segments; a trailing `**` matches the rest.
      const slash = pattern[i + 2] === '/';
      out += slash ? '(?:[^/]*/)*' : '.*';
      i += slash ? 2 : 1;
    } else if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else if (ch === '{') {
      inGroup = true;
      out += '(?:';
    } else if (ch === '}' && inGroup) {
      inGroup = false;
      out += ')';
    } else if (ch === ',' && inGroup) out += '|';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i);
      if (end === -1) out += '\\[';
      else {
        out += `[${pattern
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else out += escape(ch);
  }
  return new RegExp(`^(?:.*/)?${out}$`);
}
