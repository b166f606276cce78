/**
 * A hand edit is read this long after the last change event for the file: editors save in steps
 * (truncate, write, rename, chmod), and reading between them would see a half-written file.
 */
export const CONFIG_WATCH_SETTLE_MS = 50;

/**
 * An in-app change is merged again when the file changed under it (a hand save between our read
 * and our rename); after this many tries it is written anyway, the edit being merged the last time.
 */
export const CONFIG_WRITE_RETRIES = 3;
