// A stand-in for the user's browser in sign-in tests: run as $BROWSER with the page's URL, it
// loads the page and follows every redirect (an authorization server that approves at once sends
// it straight back to the app's loopback listener), like a browser whose user clicked "Allow".
// Usage: stand-in-browser.mjs [--log FILE] [--wait-for FILE] URL; with --log, each URL it loads is
// appended to FILE; with --wait-for, it loads nothing until FILE exists (a user still reading the
// consent page), so a test can see the app wait for the sign-in.
import { appendFileSync, existsSync } from 'node:fs';

const MAX_HOPS = 10;
const WAIT_POLL_MS = 50;
/** A test that failed before approving must not leave this process polling forever. */
const WAIT_MAX_MS = 60_000;
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const log = option('--log');
const waitFor = option('--wait-for');
const waitUntil = Date.now() + WAIT_MAX_MS;
while (waitFor && !existsSync(waitFor)) {
  if (Date.now() > waitUntil) process.exit(1);
  await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
}
let url = args.at(-1);
for (let hop = 0; url && hop < MAX_HOPS; hop++) {
  if (log) appendFileSync(log, `${url}\n`);
  let response;
  try {
    response = await fetch(url, { redirect: 'manual' });
  } catch (err) {
    process.stderr.write(`stand-in browser: ${url}: ${err.message}\n`);
    process.exit(1);
  }
  const location = response.headers.get('location');
  await response.arrayBuffer();
  url =
    response.status >= 300 && response.status < 400 && location
      ? new URL(location, url).href
      : null;
}
