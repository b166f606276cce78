/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are whatever JSON was sent */
import { test, expect, openProject } from './agent-fixtures';
import { dropFiles as drop, pasteFiles as paste, png } from './clipboard';
import { makePng, noisePng } from '../helpers/png';

// #17.14 / #16.1: an image pasted into the message box or dropped on it becomes a chip (thumbnail,
// name, size, remove), is refused with a reason when it is no image or too big, goes to the model
// as an image block with the message, and shows in the conversation.

const red = makePng(3, 2, [255, 0, 0]);
const blue = makePng(4, 4, [0, 0, 255]);
const green = makePng(2, 2, [0, 255, 0]);

test('pasted and dropped images become chips, are refused with a reason, and reach the model as image blocks', async ({
  app,
  script,
  fake,
}) => {
  script.push({ text: 'A red and a blue square.' });
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  const chips = app.getByRole('list', { name: 'Attached images' });

  await paste(box, [png('red.png', red)]);
  const redChip = chips.getByRole('listitem').filter({ hasText: 'red.png' });
  await expect(redChip).toContainText(`PNG, 3×2, ${red.length} bytes`);
  // The thumbnail is the pasted file itself.
  await expect(redChip.locator('img')).toHaveAttribute(
    'src',
    `data:image/png;base64,${red.toString('base64')}`,
  );

  await drop(app.locator('form.composer'), [png('blue.png', blue)]);
  await expect(chips.getByRole('listitem')).toHaveCount(2);
  await expect(chips.getByRole('listitem').nth(1)).toContainText('blue.png');

  // A file that is not an image, and one over the 5 MB a model takes: refused, saying why.
  await drop(app.locator('form.composer'), [
    { name: 'notes.txt', type: 'text/plain', base64: btoa('just text') },
  ]);
  await expect(app.getByRole('alert')).toHaveText(
    'notes.txt is not an image a model can read (PNG, JPEG, GIF or WebP).',
  );
  await paste(box, [{ name: 'huge.png', type: 'image/png', pngBytes: 6 * 1024 * 1024 }]);
  await expect(app.getByRole('alert')).toHaveText(
    'huge.png was not added: it is 6.0 MB, over the 5.0 MB a model takes per image.',
  );
  await expect(chips.getByRole('listitem')).toHaveCount(2);

  // Removed from the keyboard: the chip's button is one Shift+Tab from the message box, and
  // focus goes back to the box.
  await paste(box, [png('green.png', green)]);
  await expect(chips.getByRole('listitem')).toHaveCount(3);
  await box.focus();
  await app.keyboard.press('Shift+Tab');
  const remove = app.getByRole('button', { name: 'Remove green.png' });
  await expect(remove).toBeFocused();
  await app.keyboard.press('Enter');
  await expect(chips.getByRole('listitem')).toHaveCount(2);
  await expect(box).toBeFocused();

  await box.fill('What colours are these?');
  await app.keyboard.press('Enter');
  const mine = app.getByLabel('You').filter({ hasText: 'What colours are these?' });
  await expect(mine.getByRole('img')).toHaveCount(2);
  await expect(mine.getByRole('img').first()).toHaveAttribute(
    'src',
    `data:image/png;base64,${red.toString('base64')}`,
  );
  await expect(app.getByText('A red and a blue square.')).toBeVisible();
  await expect(chips).toHaveCount(0);

  const content = fake.requests[0]!.body.messages[0].content as any[];
  expect(content.filter((b) => b.type === 'image')).toEqual([
    {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: red.toString('base64') },
    },
    {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: blue.toString('base64') },
    },
  ]);
  expect(content.at(-1)).toMatchObject({ type: 'text', text: 'What colours are these?' });
});

test('an image alone is a message', async ({ app, script, fake }) => {
  script.push({ text: 'Green.' });
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  await paste(box, [png('green.png', green)]);
  await expect(app.getByRole('listitem').filter({ hasText: 'green.png' })).toBeVisible();
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByLabel('Agent').filter({ hasText: 'Green.' })).toBeVisible();
  const content = fake.requests[0]!.body.messages[0].content as any[];
  expect(content[0]).toMatchObject({ type: 'image', source: { data: green.toString('base64') } });
});

test('a 3 MB screenshot goes over the connection whole, and Regenerate sends it again', async ({
  app,
  script,
  fake,
}) => {
  // Over the 1 MiB a frame could carry before images: the socket must take a message with images.
  const shot = noisePng(1000, 1000);
  expect(shot.length).toBeGreaterThan(3_000_000);
  script.push({ text: 'Noise.' }, { text: 'Still noise.' });
  await openProject(app, 'app');
  await app.getByRole('button', { name: 'New session', exact: true }).click();
  const box = app.getByRole('textbox', { name: 'Message' });
  await paste(box, [png('screenshot.png', shot)]);
  await expect(app.getByRole('listitem').filter({ hasText: 'screenshot.png' })).toContainText(
    'PNG, 1000×1000, 2.9 MB',
  );
  await box.fill('What is on the screen?');
  await app.keyboard.press('Enter');
  await expect(app.getByLabel('Agent').filter({ hasText: 'Noise.' })).toBeVisible();
  const sent = (fake.requests[0]!.body.messages[0].content as any[])[0];
  expect(sent.source.data).toBe(shot.toString('base64'));

  await app
    .getByRole('group', { name: 'Answer' })
    .getByRole('button', { name: 'Regenerate' })
    .click();
  await expect(app.getByLabel('Agent').filter({ hasText: 'Still noise.' })).toBeVisible();
  const again = (fake.requests[1]!.body.messages.at(-1).content as any[]).filter(
    (b) => b.type === 'image',
  );
  expect(again.map((b) => b.source.data)).toEqual([shot.toString('base64')]);
});
