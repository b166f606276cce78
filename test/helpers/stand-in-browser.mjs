// A stand-in for the user's browser in sign-in tests: run as $BROWSER with the page's URL, it
// loads the page and follows every redirect (an authorization server that approves at once sends
// it straight back to the app's loopback listener), like a browser whose user clicked "Allow".
// Usage: stand-in-browser.mjs [--log FILE] URL; with --log, each URL it loads is appended to FILE.
import { appendFileSync } from 'node:fs';

const MAX_HOPS = 10;
const args = process.argv.slice(2);
const log = args[0] === '--log' ? args[1] : undefined;
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
