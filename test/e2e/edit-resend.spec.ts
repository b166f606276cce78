/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are whatever JSON was sent */
import type { RecordedRequest } from '../helpers/fake-model-script';
import { test, expect, openProject } from './agent-fixtures';
import { pasteFiles, pasteText, png } from './clipboard';
import { shots } from './fixtures';
import { makePng } from '../helpers/png';

// #17.14: "Edit and resend" on a message of yours puts all of it back in the message box: the
// words, and the images and pasted texts as the same chips a fresh paste makes (thumbnail, name,
// size, remove from the keyboard). What is sent after the edit is exactly what the chips then
// hold, and Regenerate asks the model again with the message as it was, pasted texts included.

const red = makePng(3, 2, [255, 0, 0]);
const blue = makePng(4, 4, [0, 0, 255]);

/** `lines` numbered lines tagged `tag`: long enough (60+ lines) to become a chip. */
function pasted(lines: number, tag: string): string {
  let out = '';
  for (let i = 1; i <= lines; i++) out += `${tag} line ${i}\n`;
  return out;
}
const alpha = pasted(80, 'alpha');
const beta = pasted(120, 'beta');

/** The last user message of a model request: its image bytes (base64) and its text. */
function lastUserMessage(req: RecordedRequest) {
  const content = req.body.messages.at(-1).content as any[];
  return {
    images: content.filter((b) => b.type === 'image').map((b) => b.source.data as string),
    text: content
      .filter((b) => b.type === 'text')
      .map((b) => b.text as string)
      .join('\n'),
  };
}

test('edit and resend brings back the images and pasted texts as chips, and sends exactly the ones kept', async ({
  app,
  script,
  fake,
}) => {
  script.push({ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Third answer.' });
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  const composer = app.locator('form.composer');
  const imageChips = composer.getByRole('list', { name: 'Attached images' }).getByRole('listitem');
  const pasteChips = composer.getByRole('list', { name: 'Pasted text' }).getByRole('listitem');

  await pasteFiles(box, [png('red.png', red), png('blue.png', blue)]);
  await expect(imageChips).toHaveCount(2);
  await pasteText(box, alpha);
  await pasteText(box, beta);
  await expect(pasteChips).toHaveCount(2);
  await box.fill('Describe these');
  await app.keyboard.press('Enter');
  await expect(app.getByText('First answer.')).toBeVisible();
  const first = lastUserMessage(fake.requests.at(-1)!);
  expect(first.images).toEqual([red.toString('base64'), blue.toString('base64')]);
  expect(first.text).toContain(alpha);
  expect(first.text).toContain(beta);
  await expect(imageChips).toHaveCount(0);
  await expect(pasteChips).toHaveCount(0);

  // Edit: the words in the box, each image and pasted text a chip again, as when pasted.
  const mine = app.getByLabel('You').filter({ hasText: 'Describe these' });
  await mine.hover();
  await mine.getByRole('button', { name: 'Edit and resend' }).click();
  await expect(box).toHaveValue('Describe these');
  await expect(box).toBeFocused();
  await expect(imageChips).toHaveCount(2);
  const redChip = imageChips.filter({ hasText: 'red.png' });
  await expect(redChip).toContainText(`PNG, 3×2, ${red.length} bytes`);
  await expect(redChip.locator('img')).toHaveAttribute(
    'src',
    `data:image/png;base64,${red.toString('base64')}`,
  );
  await expect(imageChips.nth(1)).toContainText(`blue.png`);
  await expect(imageChips.nth(1)).toContainText(`PNG, 4×4, ${blue.length} bytes`);
  await expect(pasteChips).toHaveCount(2);
  await expect(pasteChips.nth(0)).toContainText('Pasted text, 80 lines (1)');
  await expect(pasteChips.nth(1)).toContainText('Pasted text, 120 lines (2)');
  // A restored paste opens to read, like a fresh one.
  await composer.getByRole('button', { name: 'Open Pasted text, 120 lines (2)' }).click();
  const dialog = app.getByRole('dialog', { name: 'Pasted text, 120 lines' });
  await expect(dialog.getByLabel('Pasted text')).toContainText('beta line 120');
  await app.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await box.focus();
  const size = app.viewportSize()!;
  await shots(app, 'edit-resend-chips');
  await app.emulateMedia({ colorScheme: 'light' });
  await app.setViewportSize(size);

  // Removed from the keyboard, each one Shift+Tab stop nearer the box: the second pasted text,
  // then (past the first one's remove and open buttons) the blue image.
  await box.focus();
  await app.keyboard.press('Shift+Tab');
  await expect(
    composer.getByRole('button', { name: 'Remove Pasted text, 120 lines (2)' }),
  ).toBeFocused();
  await app.keyboard.press('Enter');
  await expect(pasteChips).toHaveCount(1);
  await expect(box).toBeFocused();
  await app.keyboard.press('Shift+Tab');
  await expect(
    composer.getByRole('button', { name: 'Remove Pasted text, 80 lines', exact: true }),
  ).toBeFocused();
  await app.keyboard.press('Shift+Tab');
  await expect(
    composer.getByRole('button', { name: 'Open Pasted text, 80 lines', exact: true }),
  ).toBeFocused();
  await app.keyboard.press('Shift+Tab');
  await expect(composer.getByRole('button', { name: 'Remove blue.png' })).toBeFocused();
  await app.keyboard.press('Enter');
  await expect(imageChips).toHaveCount(1);
  await expect(box).toBeFocused();

  await box.fill('Describe the red one');
  await app.keyboard.press('Enter');
  await expect(app.getByText('Second answer.')).toBeVisible();
  const second = lastUserMessage(fake.requests.at(-1)!);
  expect(second.images).toEqual([red.toString('base64')]);
  expect(second.text).toContain('Describe the red one');
  expect(second.text).toContain(alpha);
  expect(second.text).not.toContain('beta line');
  await expect(imageChips).toHaveCount(0);
  await expect(pasteChips).toHaveCount(0);
  const edited = app.getByLabel('You').filter({ hasText: 'Describe the red one' });
  await expect(edited.getByRole('img')).toHaveCount(1);
  await expect(edited.getByRole('list', { name: 'Pasted text you sent' })).toContainText(
    'Pasted text, 80 lines',
  );

  // Regenerate asks again with the edited message as it was: the one image and the pasted text.
  await app
    .getByRole('group', { name: 'Answer' })
    .getByRole('button', { name: 'Regenerate' })
    .click();
  await expect(app.getByText('Third answer.')).toBeVisible();
  const third = lastUserMessage(fake.requests.at(-1)!);
  expect(third.images).toEqual([red.toString('base64')]);
  expect(third.text).toContain(alpha);
  expect(third.text).not.toContain('beta line');
});

test("an edit goes to its own session's message box, never to the next session opened", async ({
  app,
  script,
}) => {
  script.push({ text: 'Noted.' });
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  await pasteText(box, alpha);
  await box.fill('Keep this here');
  await app.keyboard.press('Enter');
  await expect(app.getByText('Noted.')).toBeVisible();

  const mine = app.getByLabel('You').filter({ hasText: 'Keep this here' });
  await mine.hover();
  await mine.getByRole('button', { name: 'Edit and resend' }).click();
  await expect(box).toHaveValue('Keep this here');
  await expect(app.locator('form.composer').getByRole('list', { name: 'Pasted text' })).toHaveCount(
    1,
  );

  // A new session's message box starts empty: the edit was the other session's.
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  await expect(app.getByLabel('You')).toHaveCount(0);
  await expect(box).toHaveValue('');
  await expect(app.locator('form.composer').getByRole('list', { name: 'Pasted text' })).toHaveCount(
    0,
  );
});
