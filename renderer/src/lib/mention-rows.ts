// The rows of the @ menu for what is typed now. The host answers each query in turn, so while
// `@readme` is being typed the last answer may still be the one for `@r`, listing files and
// resources `@readme` does not match: Enter would then insert one of them. Until the answer for
// the current query arrives, an earlier answer shows only the rows whose path, name or resource
// still contains what is typed (a narrower test than the host's fuzzy ranking: a row it would
// keep may be missing for that moment, never one it would drop).

export interface MentionListing {
  query: string;
  files: string[];
  resources: { ref: string; name: string; server: string }[];
}

/** One row of the list: a project file, or an MCP server's resource. */
export interface MentionRow {
  ref: string;
  name: string;
  where: string;
}

export function mentionRows(listing: MentionListing, query: string): MentionRow[] {
  const rows: MentionRow[] = [
    ...listing.files.map((path) => {
      const cut = path.lastIndexOf('/') + 1;
      return { ref: path, name: path.slice(cut), where: path.slice(0, Math.max(0, cut - 1)) };
    }),
    ...listing.resources.map((r) => ({
      ref: r.ref,
      name: r.name,
      where: `${r.ref.slice(r.server.length + 1)} · MCP server ${r.server}`,
    })),
  ];
  if (listing.query === query) return rows;
  const q = query.toLowerCase();
  return rows.filter((r) => r.ref.toLowerCase().includes(q) || r.name.toLowerCase().includes(q));
}
