// Renders build/icons/icon.svg to the PNG sizes Linux desktops and electron-builder use, with the
// Debian Chromium Playwright already drives (no image library needed). Run when the SVG changes:
// `node build/make-icons.mjs`; the PNGs are committed.
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./icons/', import.meta.url));
const svg = readFileSync(`${dir}icon.svg`, 'utf8');
const SIZES = [16, 32, 48, 64, 128, 256, 512];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const page = await browser.newPage();
  for (const size of SIZES) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body>`,
    );
    await page.screenshot({ path: `${dir}${size}x${size}.png`, omitBackground: true });
  }
} finally {
  await browser.close();
}
console.log(`icons: ${SIZES.map((s) => `${s}x${s}.png`).join(', ')}`);
