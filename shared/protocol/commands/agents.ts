import { z } from 'zod';
import { command } from '../command';

/** One agent a session can run on: the app's own is not listed (it is always there). */
export const agentChoiceSchema = z.object({
  /** The key under `agents` in configs/app.json, or the preset's name. */
  name: z.string(),
  /** What the UI calls it ("Claude Code"; a user's own agent by its name). */
  label: z.string(),
  /** The program the app starts for it. */
  command: z.string(),
  /** A preset of the app's (claude-code, codex, gemini) rather than the user's own entry. */
  preset: z.boolean(),
  /** False: it cannot run now, and `reason` says why and what to do. */
  available: z.boolean(),
  reason: z.string().optional(),
});
export type AgentChoice = z.infer<typeof agentChoiceSchema>;

const id = z.string().min(1);
const ok = z.object({ ok: z.literal(true) });

export const agentsCommands = {
  /** The external ACP agents (issue 30): the user's `agents.NAME`, then the presets, each with whether it can run. */
  'agents.list': command(
    () => z.object({}),
    () => z.object({ agents: z.array(agentChoiceSchema) }),
  ),
  /**
   * One of the session's external agent's own modes (its `agent_modes`), sent to it as
   * session/set_mode (started for it if it is not running). Refused for a mode it does not offer.
   */
  'agents.setMode': command(
    () => z.object({ id, mode: z.string().min(1).max(200) }),
    () => ok,
  ),
  /**
   * One of the session's external agent's settings (its `agent_options`), sent to it as
   * session/set_config_option: a value of a select, or true/false for a switch.
   */
  'agents.setOption': command(
    () =>
      z.object({
        id,
        option: z.string().min(1).max(200),
        value: z.union([z.string().max(200), z.boolean()]),
      }),
    () => ok,
  ),
};
