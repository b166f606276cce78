// `npm start`: the Electron window where Electron's binary is installed; otherwise the web host,
// with its URL printed (and opened) and the reason Electron did not start.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    const path = require('electron');
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { why: `Electron's binary is not installed (expected at ${path})` };
  } catch (err) {
    // The electron package throws this when its postinstall download was skipped or failed.
    return /failed to install/i.test(err.message)
      ? { why: "Electron's binary is not installed (its download was skipped or failed)" }
      : { why: `the electron package cannot be loaded: ${err.message}` };
  }
}

if (!existsSync(`${root}/dist/cli.js`) || !existsSync(`${root}/dist/renderer/index.html`)) {
  await new Promise((resolve, reject) => {
    const b = spawn(process.execPath, [`${root}/build/build.mjs`], { stdio: 'inherit' });
    b.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build failed (${code})`))));
  });
}

const electron = electronBinary();
const run = (cmd, args) => {
  const child = spawn(cmd, args, { stdio: 'inherit', cwd: root });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
};

if (electron.path && process.env.MEWBO_WEB !== '1') {
  run(electron.path, [`${root}/dist/main.cjs`]);
} else {
  console.log(
    `Electron did not open: ${electron.why ?? 'MEWBO_WEB=1 is set'}. Starting the web host instead.`,
  );
  run(process.execPath, [`${root}/dist/cli.js`, 'serve', '--open', ...process.argv.slice(2)]);
}
