// A small table of verbs people use for the same action, so a query that describes a tool
// ("remove a branch") finds a tool named for another word (delete_branch). Matches through a
// synonym weigh less than a direct match (see search.ts). Keep it to common tool verbs: a large
// thesaurus would blur results more than it helps.
const GROUPS: readonly (readonly string[])[] = [
  ['create', 'add', 'new', 'make', 'open', 'insert', 'append'],
  ['delete', 'remove', 'destroy', 'erase', 'drop', 'close'],
  ['get', 'fetch', 'retrieve', 'read', 'show', 'view', 'load', 'lookup'],
  ['list', 'enumerate', 'browse', 'all'],
  ['update', 'edit', 'modify', 'change', 'set', 'patch', 'rename'],
  ['search', 'find', 'query', 'filter', 'lookup'],
  ['send', 'post', 'message', 'notify', 'publish', 'write'],
  ['run', 'execute', 'start', 'trigger', 'launch', 'invoke'],
  ['stop', 'cancel', 'kill', 'halt', 'terminate', 'abort'],
  ['upload', 'put', 'store', 'save'],
  ['download', 'export', 'save'],
  ['sum', 'add', 'total'],
  ['issue', 'ticket', 'bug'],
  ['repository', 'repo'],
  ['url', 'link'],
  ['pull', 'pr', 'merge'],
  ['schedule', 'calendar', 'event', 'meeting'],
  ['email', 'mail', 'inbox'],
];

export type SynonymTable = ReadonlyMap<string, ReadonlySet<string>>;

/** Built once per search index (no module-level state). Keys and values are stemmed lower-case words. */
export function synonymTable(stem: (w: string) => string): SynonymTable {
  const table = new Map<string, Set<string>>();
  for (const group of GROUPS) {
    const stems = group.map(stem);
    for (const word of stems) {
      const set = table.get(word) ?? new Set<string>();
      for (const other of stems) if (other !== word) set.add(other);
      table.set(word, set);
    }
  }
  return table;
}
