import { z } from 'zod';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { VOCABULARY_TEXT, type PanelNode } from '../../../shared/panels/components';
import { applyPanelEdit } from '../../../shared/panels/edit';
import {
  PANEL_ID_PATTERN,
  PANEL_MAX_CODE_CHARS,
  PANEL_MAX_DEPTH,
  PANEL_MAX_NODES,
  PANEL_MAX_SERIALIZED_CHARS,
  PANEL_MAX_SUMMARY_CHARS,
} from '../../../shared/panels/limits';
import { renderPanelText } from '../../../shared/panels/render-text';
import { validatePanelTree } from '../../../shared/panels/validate';
import { newPanelId } from '../agent/ids';
import { defineTool } from './tool';

// present_ui (seed): a panel drawn inline from a fixed vocabulary of eleven components. The tree is
// validated against the hard limits (refused, never trimmed), rendered to plain text, and published
// as one panel event carrying the complete tree. A Card or Stack with an id can be appended into or
// updated by a later call naming the panel (ui_id) and the container (spec.target).

const parameters = z.strictObject({
  spec: z
    .strictObject({
      root: z
        .array(z.unknown())
        .min(1, 'spec.root needs at least one node')
        .describe('The nodes: the whole tree, or with target the nodes to add'),
      target: z
        .string()
        .optional()
        .describe(
          'With ui_id: the id of a Card or Stack in that panel to change instead of the whole panel',
        ),
      op: z
        .enum(['append', 'update'])
        .optional()
        .describe(
          'With target: "append" adds spec.root to its children (default); "update" replaces it by the one Card/Stack in spec.root',
        ),
    })
    .describe('{root: [nodes]}'),
  summary: z
    .string()
    .max(PANEL_MAX_SUMMARY_CHARS)
    .optional()
    .describe(
      `One line, at most ${PANEL_MAX_SUMMARY_CHARS} characters, saying what the panel shows`,
    ),
  ui_id: z
    .string()
    .regex(PANEL_ID_PATTERN, 'a panel id looks like gui-1a2b3c4d')
    .optional()
    .describe('Id of an earlier panel to replace in place (or to change with spec.target)'),
});

function defaultSummary(tree: PanelNode[]): string {
  for (const n of tree) {
    if (n.type === 'Heading' && 'text' in n) return n.text;
    if (n.type === 'Card' && 'title' in n && n.title) return n.title;
  }
  return 'Panel';
}

export const presentUiTool = defineTool({
  name: 'present_ui',
  description:
    'Draw a structured panel inline in the conversation (a status board, a comparison, a summary table) from a fixed ' +
    'vocabulary; fill in fields, never markup. Nodes are {"type": <component>, ...fields}; containers hold "children". ' +
    `Components: ${VOCABULARY_TEXT}. Hard limits (a tree over one is refused, not trimmed): ${PANEL_MAX_NODES} nodes, ` +
    `${PANEL_MAX_DEPTH} levels, ${PANEL_MAX_SERIALIZED_CHARS} serialized characters, code ${PANEL_MAX_CODE_CHARS}, ` +
    'paragraphs 2000, table/definition values 500; links only http, https, mailto. Build a rich panel over several small ' +
    'calls: give a Card or Stack an "id", then call again with ui_id and spec.target to append into it or update it. ' +
    'The user sees the panel and its plain-text rendering: do not repeat its content in prose. The call does not end your turn.',
  parameters,
  flags: { readOnly: true, needsCapability: 'generative_ui', approval: 'none' },
  async run(ctx, args): Promise<ToolPayload> {
    if (args.summary !== undefined && /[\r\n]/.test(args.summary))
      return errorPayload('invalid_panel', 'summary must be one line');
    const { target, op } = args.spec;
    if ((target !== undefined || op !== undefined) && !args.ui_id) {
      return errorPayload(
        'invalid_panel',
        'spec.target and spec.op change an earlier panel: give its ui_id too',
      );
    }
    if (op !== undefined && target === undefined)
      return errorPayload('invalid_panel', 'spec.op needs spec.target (the id of a Card or Stack)');
    const checked = validatePanelTree(args.spec.root, 'spec.root');
    if (!checked.ok) {
      return errorPayload('invalid_panel', `The panel was refused: ${checked.errors.join('; ')}`, {
        errors: checked.errors,
      });
    }
    let tree = checked.tree;
    let previous: { root: unknown[]; summary: string } | undefined;
    if (args.ui_id) {
      previous = ctx.services.panels?.latest(args.ui_id);
      if (!previous)
        return errorPayload(
          'not_found',
          `No panel ${args.ui_id} was presented in this session; omit ui_id to present a new one`,
        );
      if (target !== undefined) {
        const edited = applyPanelEdit(previous.root as PanelNode[], target, op ?? 'append', tree);
        if (!edited.ok) return errorPayload('invalid_panel', edited.error);
        const whole = validatePanelTree(edited.tree, 'panel');
        if (!whole.ok)
          return errorPayload(
            'invalid_panel',
            `The change was refused: ${whole.errors.join('; ')}`,
            { errors: whole.errors },
          );
        tree = whole.tree;
      }
    }
    const uiId = args.ui_id ?? newPanelId();
    const summary = args.summary?.trim() || previous?.summary || defaultSummary(tree);
    const text = renderPanelText(tree);
    await ctx.emit({
      type: 'panel',
      ui_id: uiId,
      call_id: ctx.callId ?? '',
      spec: { root: tree },
      summary,
      text,
    });
    const recheck = validatePanelTree(tree);
    const unsupported = recheck.ok ? recheck.unsupported : [];
    return {
      kind: 'panel',
      ui_id: uiId,
      summary,
      nodes: recheck.ok ? recheck.nodeCount : 0,
      replaced: !!args.ui_id,
      ...(unsupported.length ? { unsupported } : {}),
      message:
        `Panel ${uiId} is shown to the user${unsupported.length ? ` (not in the vocabulary, drawn as placeholder rows: ${unsupported.join(', ')})` : ''}. ` +
        `Do not repeat its content in prose. To change it, call present_ui with ui_id "${uiId}" (spec.target names a Card or Stack id).`,
    };
  },
});
