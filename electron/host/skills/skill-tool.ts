import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { errorPayload } from '../../../shared/tools/payload';
import { defineTool, type AnyTool } from '../tools/tool';
import { skillBody, skillFilePath, skillFiles, type Skill } from './skill-catalog';

// `skill`: loads one skill's instructions when the model decides it applies (the system prompt
// lists only names and descriptions), and lists the skill's other files. With `file`, returns one
// of those files: a user's skill lives under $MEWBO_HOME, which read_file cannot reach.

export const SKILL_TOOL_NAME = 'skill';
/** A skill file returned whole up to this; more is cut (context is paid on every later request). */
const SKILL_FILE_MAX_CHARS = 100_000;

const parameters = z.strictObject({
  name: z
    .string()
    .min(1)
    .describe('The skill to load, as listed under "Skills" in the system prompt'),
  file: z
    .string()
    .min(1)
    .optional()
    .describe(
      "One of the skill's other files (a path from its `files` list) to read instead of its instructions",
    ),
});

export function createSkillTool(skills: readonly Skill[]): AnyTool {
  return defineTool({
    name: SKILL_TOOL_NAME,
    description:
      "Load a skill's instructions (and the list of its other files) when the task matches its description. " +
      'Call it with the skill name before doing the task the skill covers; pass `file` to read one of its files.',
    parameters,
    flags: { readOnly: true },
    async run(_ctx, args) {
      const skill = skills.find((s) => s.name === args.name);
      if (!skill)
        return errorPayload(
          'not_found',
          `No skill named "${args.name}". Skills: ${skills.map((s) => s.name).join(', ') || '(none)'}`,
        );
      if (args.file) {
        const path = await skillFilePath(skill, args.file);
        if (!path)
          return errorPayload('not_found', `"${args.file}" is not a file of skill "${skill.name}"`);
        const text = await readFile(path, 'utf8');
        return {
          kind: 'skill_file',
          name: skill.name,
          file: args.file,
          content: text.slice(0, SKILL_FILE_MAX_CHARS),
          truncated: text.length > SKILL_FILE_MAX_CHARS,
        };
      }
      const { files, truncated } = await skillFiles(skill);
      return {
        kind: 'skill',
        name: skill.name,
        description: skill.description,
        scope: skill.scope,
        dir: skill.dir,
        instructions: await skillBody(skill),
        files,
        ...(truncated ? { files_truncated: true } : {}),
        ...(files.length
          ? {
              note: `Read these with skill(name: "${skill.name}", file: <path>) when the instructions call for them.`,
            }
          : {}),
      };
    },
  });
}
