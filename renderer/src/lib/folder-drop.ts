// What a drop on the window holds, for "drag a folder onto the window to open it as a project".
// A folder has no MIME type and its entry says it is a directory. Its path on disk is known only
// inside Electron (the preload asks webUtils for it); a page in a browser never learns where a
// dropped folder is, so the web build can only say so.

export type DroppedFolder =
  | { kind: 'folder'; path: string; name: string }
  /** A folder, but this window cannot learn its path (the web build). */
  | { kind: 'no-path'; name: string }
  /** Files only: nothing to open as a project. */
  | { kind: 'not-folder' };

/** Whether a drag may carry a folder (while dragging, entries cannot be read yet: only types). */
export function mayHoldFolder(dt: DataTransfer | null): boolean {
  return !!dt && [...dt.items].some((i) => i.kind === 'file' && i.type === '');
}

/** The first folder of a drop, with its path when `pathForFile` can tell it. */
export function droppedFolder(
  dt: DataTransfer,
  pathForFile: ((file: File) => string) | undefined,
): DroppedFolder {
  const items = [...dt.items];
  for (const item of items) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (!entry?.isDirectory) continue;
    const file = item.getAsFile();
    const path = file && pathForFile ? pathForFile(file) : '';
    return path
      ? { kind: 'folder', path, name: entry.name }
      : { kind: 'no-path', name: entry.name };
  }
  return { kind: 'not-folder' };
}
