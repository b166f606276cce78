// Limits of the checkpoint store (see checkpoint-store.ts for what a checkpoint is).

/** A git call on a project tree is killed after this long (a 50k-file add takes well under 1 s warm). */
export const CHECKPOINT_GIT_TIMEOUT_MS = 120_000;

/** Bytes of git output kept from one call (diff-tree and ls-files of a big tree). */
export const CHECKPOINT_GIT_MAX_BUFFER = 256 * 1024 * 1024;

/** Times a snapshot is retried when another process holds the shadow index's lock. */
export const INDEX_LOCK_RETRIES = 5;

/** Wait between those retries. */
export const INDEX_LOCK_RETRY_MS = 200;

/**
 * Overrides every attribute a project's own .gitattributes could set on the way in or out
 * ($GIT_DIR/info/attributes wins over the tree's): no eol or encoding conversion, no ident, no
 * filter driver, so a restored file is byte for byte what was snapshotted.
 */
export const RAW_ATTRIBUTES =
  '* -text -eol -crlf -ident -filter -working-tree-encoding -diff -merge\n';

/**
 * Changed paths up to which a snapshot adds just those (by literal pathspec) instead of walking
 * the whole tree again; git matches pathspecs one by one, so very many cost more than a walk.
 */
export const INCREMENTAL_ADD_MAX = 2_000;
