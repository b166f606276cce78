import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunHarness, resultsOf } from './run-harness';

// Skills and slash commands through `mewbo run` against a scripted model.

let h: RunHarness;
beforeEach(async () => {
  h = await RunHarness.start();
});
afterEach(async () => {
  await h.close();
});

const skillMd = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

describe('skills', () => {
  it("the system prompt lists a skill's name and description; its body loads only after the model calls skill", async () => {
    h.write(
      'skills/pdf-forms/SKILL.md',
      skillMd('pdf-forms', 'Fill in PDF forms', 'BODY-MARKER: use pdftk.'),
    );
    h.write('skills/pdf-forms/reference.md', 'REFERENCE-MARKER');
    h.fake.script.push(
      { toolCalls: [{ name: 'skill', args: { name: 'pdf-forms' } }] },
      { toolCalls: [{ name: 'skill', args: { name: 'pdf-forms', file: 'reference.md' } }] },
      { text: 'ok' },
    );
    const r = await h.run(['fill the form']);
    expect(r.code).toBe(0);
    const [first, second, third] = h.fake.requests;
    expect(first!.system).toContain('pdf-forms: Fill in PDF forms');
    expect(first!.tools).toContain('skill');
    expect(first!.system + first!.transcript).not.toContain('BODY-MARKER');
    expect(second!.transcript).toContain('BODY-MARKER: use pdftk.');
    expect(second!.transcript).toContain('reference.md');
    expect(third!.transcript).toContain('REFERENCE-MARKER');
    expect(resultsOf(r)[0]).toMatchObject({ kind: 'skill', name: 'pdf-forms', scope: 'user' });
  });

  it('a skill file outside its folder is refused', async () => {
    h.write('skills/a/SKILL.md', skillMd('a', 'A skill', 'body'));
    h.write('configs/secret.txt', 'DO-NOT-LEAK');
    h.fake.script.push(
      { toolCalls: [{ name: 'skill', args: { name: 'a', file: '../../configs/secret.txt' } }] },
      { text: 'ok' },
    );
    const r = await h.run(['go']);
    expect(resultsOf(r)[0]).toMatchObject({ kind: 'error', code: 'not_found' });
    expect(h.fake.requests[1]!.transcript).not.toContain('DO-NOT-LEAK');
  });

  it('malformed front matter is a warning naming the file and line; the other skills still load', async () => {
    h.write('skills/bad/SKILL.md', '---\nname: bad\ndescription: [unclosed\n---\nbody\n');
    h.write('skills/nameless/SKILL.md', '---\ndescription: no name here\n---\nbody\n');
    h.write('skills/good/SKILL.md', skillMd('good', 'A good skill', 'body'));
    h.fake.script.push({ text: 'ok' });
    const r = await h.run(['hi']);
    expect(r.stderr).toMatch(
      /warning: .*skills\/bad\/SKILL\.md:\d+: front matter is not valid YAML/,
    );
    expect(r.stderr).toMatch(
      /warning: .*skills\/nameless\/SKILL\.md:1: front matter needs a `name`/,
    );
    expect(h.fake.requests[0]!.system).toContain('good: A good skill');
    expect(h.fake.requests[0]!.system).not.toContain('bad:');
  });

  it("an untrusted project's skills are not listed; trusted (--trust), they are", async () => {
    h.write(
      '.claude/skills/proj/SKILL.md',
      skillMd('proj-skill', 'From the project', 'body'),
      'project',
    );
    h.fake.script.push({ text: 'ok' }, { text: 'ok' });
    await h.run(['hi']);
    expect(h.fake.requests[0]!.system).not.toContain('proj-skill');
    expect(h.fake.requests[0]!.tools).not.toContain('skill');
    await h.run(['--trust', 'hi']);
    expect(h.fake.requests[1]!.system).toContain('proj-skill: From the project');
  });
});

describe('slash commands', () => {
  it('a `mewbo run "/name args"` prompt expands the command with $ARGUMENTS', async () => {
    h.write(
      'commands/review.md',
      '---\ndescription: Review a file\n---\nReview the file $ARGUMENTS carefully.\n',
    );
    h.fake.script.push({ text: 'ok' });
    const r = await h.run(['/review src/a.ts']);
    expect(r.code).toBe(0);
    expect(h.fake.requests[0]!.transcript).toContain('Review the file src/a.ts carefully.');
    expect(r.events.find((e) => e.type === 'command_expanded')).toMatchObject({
      name: 'review',
      kind: 'command',
    });
  });

  it('/skill-name loads the skill for the user; an unknown /name is sent as typed', async () => {
    h.write('skills/deploy/SKILL.md', skillMd('deploy', 'Deploy the app', 'DEPLOY-STEPS'));
    h.fake.script.push({ text: 'ok' }, { text: 'ok' });
    await h.run(['/deploy staging']);
    expect(h.fake.requests[0]!.transcript).toContain('DEPLOY-STEPS');
    expect(h.fake.requests[0]!.transcript).toContain('staging');
    await h.run(['/nosuch thing']);
    expect(h.fake.requests[1]!.transcript).toContain('/nosuch thing');
  });

  it("an untrusted project's commands do not expand", async () => {
    h.write('.claude/commands/hello.md', 'PROJECT-COMMAND $ARGUMENTS', 'project');
    h.fake.script.push({ text: 'ok' }, { text: 'ok' });
    await h.run(['/hello x']);
    expect(h.fake.requests[0]!.transcript).not.toContain('PROJECT-COMMAND');
    await h.run(['--trust', '/hello x']);
    expect(h.fake.requests[1]!.transcript).toContain('PROJECT-COMMAND x');
  });
});
