// Limits of projects on SSH hosts (issue #29), each with its unit and its reason.

import { FLOW_LOW_WATERMARK_CHARS, FLOW_STALL_MS } from '../shells/constants';

/** Authentication and the first round trip; past this a host is unreachable, not slow. */
export const CONNECT_TIMEOUT_S = 15;
/**
 * OpenSSH's own liveness probe on the master connection (ServerAliveInterval): a link that
 * silently died (a laptop lid, a dropped Wi-Fi) is noticed within interval x count seconds
 * instead of at the next TCP timeout (minutes).
 */
export const SERVER_ALIVE_INTERVAL_S = 15;
export const SERVER_ALIVE_COUNT = 3;
/** The remote part runs on Node, and the app's code targets Node 20 (build.mjs target). */
export const MIN_NODE_MAJOR = 20;
/** The remote part's folder under the remote home: the bundle in VERSION/, its state beside. */
export const REMOTE_DIR_NAME = '.mewbo-remote';
/** A probe's or a copy's output past this is not what we asked for: stop reading. */
export const MAX_COMMAND_OUTPUT_BYTES = 1024 * 1024;
/** Beside the bundle on the remote: the version the app installed it as (read by `remote.hello`). */
export const REMOTE_VERSION_FILE = 'REMOTE_VERSION';
/**
 * The size limit of the checkpoint store the remote part keeps: config's default. Never the one
 * applied: every snapshot the app asks for carries the limit of the app's config, which wins.
 */
export const REMOTE_STORE_MAX_FILE_BYTES = 10 * 1024 * 1024;
/**
 * Events a remote session's tools emitted after their call returned (shell exits), held for an
 * app that has not taken them; past this the oldest go (a session nobody reconnects to).
 */
export const LATE_EVENTS_KEPT = 1000;
/**
 * Reconnecting after a drop: the first try after this long, each next one after twice as long, up
 * to the cap (a laptop back on Wi-Fi is found within the cap; a host down is not hammered).
 */
export const RECONNECT_FIRST_DELAY_MS = 500;
export const RECONNECT_MAX_DELAY_MS = 30_000;
/** How long a relay waits for a remote part it started to listen on its socket. */
export const DAEMON_START_TIMEOUT_MS = 20_000;
/** A call made while the link is down waits this long for the reconnect before it is refused unsent. */
export const CALL_WAITS_FOR_LINK_MS = 20_000;
/**
 * A project file the app obeys or shows the model (settings, instructions, a skill), read on the
 * host and copied here: past this it is not a policy file anybody wrote by hand, and it is left out.
 */
export const POLICY_FILE_MAX_BYTES = 256 * 1024;
/** Policy files copied per project (skills and commands are one file each): a vendored tree is cut. */
export const POLICY_FILES_MAX = 500;
/** A path the host names (a worktree, its checkout): Linux's PATH_MAX; past it no path is genuine. */
export const HOST_PATH_MAX_CHARS = 4096;
/** A commit's subject or author as the host lists it: a line, not a file's worth of text. */
export const HOST_TEXT_MAX_CHARS = 4096;
/**
 * A remote console's acks are passed on to the remote part once this many characters are acked
 * (or REMOTE_ACK_HOLD_MS after the first one held): one ack line per console frame crossed ssh,
 * sshd, the relay and the remote part each (#29: 1,200 a 64 MiB stream, as many as the frames
 * the other way); held so, about a quarter as many cross. Half the low watermark, so a console
 * that has taken everything leaves the remote part below it and a paused producer resumes.
 */
export const REMOTE_ACK_BATCH_CHARS = FLOW_LOW_WATERMARK_CHARS / 2;
/**
 * Acks held no longer than this: a console acking slowly still holds its producer (the remote
 * part lets go of a subscriber silent for FLOW_STALL_MS), and idle output is not left unacked.
 */
export const REMOTE_ACK_HOLD_MS = FLOW_STALL_MS / 50;
