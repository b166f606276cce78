/**
 * A session nobody views and that runs nothing is closed after this long: long enough that going
 * back and forth between two sessions does not reopen one each time, short enough that the host's
 * memory follows what is on screen. (Its events leave memory at once; this is the rest.)
 */
export const SESSION_QUIET_CLOSE_MS = 60_000;
