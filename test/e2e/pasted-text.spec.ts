import { test, expect, openProject } from './agent-fixtures';
import { pasteText as paste } from './clipboard';
import { shots } from './fixtures';

// #17.10: a long paste becomes a chip ("Pasted text, N lines") that opens and can be removed;
// it is sent to the model as text with the message. A 1 MB paste crosses the WebSocket whole,
// the page stays usable while it is held, and a paste over the limit is refused in words, with
// the connection kept.

/** `lines` numbered lines of 50 characters each (49 and a newline). */
function log(lines: number, tag: string): string {
  let out = '';
  for (let i = 1; i <= lines; i++)
    out += `${tag} ${String(i).padStart(6, '0')} `.padEnd(49, '.') + '\n';
  return out;
}

test('a 1 MB paste is a chip that opens, goes whole to the model, and keeps the page usable', async ({
  app,
  script,
}) => {
  script.push({ text: 'Read all 20,000 lines.' });
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  const chips = app.locator('form.composer').getByRole('list', { name: 'Pasted text' });

  // Short text is typed text: no chip.
  await paste(box, 'just a line');
  await expect(chips).toHaveCount(0);

  const big = log(20_000, 'log'); // 1,000,000 characters
  expect(big.length).toBe(1_000_000);
  await paste(box, big);
  const chip = chips.getByRole('listitem');
  await expect(chip).toHaveCount(1);
  await expect(chip).toContainText('Pasted text, 20,000 lines');
  await expect(chip).toContainText('1.0M chars');
  await expect(chip).toHaveAttribute('title', /^1,000,000 characters/);
  // The megabyte is not in the box: typing stays as light as ever.
  await expect(box).toHaveValue('');
  await box.focus();
  await app.keyboard.type('Summarise this log');
  await expect(box).toHaveValue('Summarise this log');

  // It opens to read (from the keyboard), and closes back to where it was.
  await app.getByRole('button', { name: 'Open Pasted text, 20,000 lines' }).focus();
  await app.keyboard.press('Enter');
  const dialog = app.getByRole('dialog', { name: 'Pasted text, 20,000 lines' });
  await expect(dialog.getByLabel('Pasted text')).toContainText('log 000001 ....');
  await expect(dialog.getByRole('button', { name: 'Show all 20,000 lines' })).toBeVisible();
  await shots(app, 'pasted-text-open');
  await app.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // A second long paste, removed again from the keyboard.
  await paste(box, log(80, 'other'));
  await expect(chip).toHaveCount(2);
  await app.getByRole('button', { name: 'Remove Pasted text, 80 lines (2)' }).focus();
  await app.keyboard.press('Enter');
  await expect(chip).toHaveCount(1);
  await expect(box).toBeFocused();

  // Over the limit: refused in words, nothing attached, the connection kept.
  await paste(box, log(25_000, 'huge') + log(20_000, 'more'));
  const refusal = app.locator('form.composer').getByRole('alert');
  await expect(refusal).toContainText('Not attached');
  await expect(refusal).toContainText('at most 2.0 million characters of pasted text');
  await expect(chip).toHaveCount(1);
  await shots(app, 'pasted-text-chip');

  await app.keyboard.press('Enter');
  await expect(app.getByText('Read all 20,000 lines.')).toBeVisible();
  await expect(app.getByText('Connecting to the host')).toHaveCount(0);
  await expect(chips).toHaveCount(0);
  // Whole: every one of the million characters reached the model, after the typed words.
  const sent = script.requests.find((r) => r.transcript.includes('Summarise this log'));
  expect(sent).toBeDefined();
  expect(sent!.transcript).toContain(big);
  expect(sent!.transcript).not.toContain('other 000001');
  expect(sent!.transcript).not.toContain('huge 000001');

  // The sent message shows the chip, which opens too.
  const mine = app.getByLabel('You').filter({ hasText: 'Summarise this log' });
  await mine.getByRole('button', { name: 'Open Pasted text, 20,000 lines' }).click();
  await expect(
    app.getByRole('dialog', { name: 'Pasted text, 20,000 lines' }).getByLabel('Pasted text'),
  ).toContainText('log 000002 ....');
  await shots(app, 'pasted-text-sent');
  await app.keyboard.press('Escape');
});
