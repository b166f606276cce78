// Streamed markdown split into its top-level blocks, so a growing answer re-parses only its last
// block: every block before it is finished and keeps its rendering. A block ends at a blank line
// followed by an unindented line; a blank line inside a fenced code block, or before an indented
// line (a list item's next paragraph, indented code), does not end it. Only the live stream is
// drawn this way: the finished message is parsed whole.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function markdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let blanks = 0;
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    if (!fence && line.trim() === '') {
      blanks++;
      continue;
    }
    if (blanks) {
      if (!fence && !/^\s/.test(line) && current.length) {
        blocks.push(current.join('\n'));
        current = [];
      } else {
        for (; blanks > 0; blanks--) current.push('');
      }
      blanks = 0;
    }
    const m = FENCE.exec(line);
    if (fence) {
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length) fence = null;
    } else if (m) fence = m[1]!;
    current.push(line);
  }
  if (current.length) blocks.push(current.join('\n'));
  return blocks;
}
