// `node bench/byte-server.mjs HOST BYTES`: an HTTP server on HOST and a port the kernel picks
// that answers every GET with BYTES bytes (one 1 MiB block repeated, written as fast as the client
// reads), and prints its port. A process of its own, so the host process under test (whose event
// loop runs the egress proxy) does not also serve the bytes, as no real origin would.
import { createServer } from 'node:http';

const [host, total] = [process.argv[2], Number(process.argv[3])];
const BLOCK = Buffer.alloc(1 << 20, 0x5a);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': total });
  let left = total;
  const more = () => {
    while (left > 0) {
      const n = Math.min(left, BLOCK.length);
      left -= n;
      if (!res.write(n === BLOCK.length ? BLOCK : BLOCK.subarray(0, n))) return;
    }
    res.end();
  };
  res.on('drain', more);
  more();
});
server.listen(0, host, () => console.log(server.address().port));
process.on('SIGTERM', () => process.exit(0));
// Started detached, it would outlive a bench that died: the bench's IPC channel closing ends it.
process.on('disconnect', () => process.exit(0));
