import { z } from 'zod';
import {
  CONTAINER_ID_PATTERN,
  LINK_PATTERN,
  PANEL_MAX_CODE_CHARS,
  PANEL_MAX_LABEL_CHARS,
  PANEL_MAX_PROSE_CHARS,
  PANEL_MAX_VALUE_CHARS,
} from './limits';

// The fixed vocabulary of present_ui: eleven components with typed fields, no markup, no styling,
// no code. Each schema checks one node's own fields; `children` is checked node by node by
// validate.ts, which also enforces the tree-wide limits (count, depth, size).

const label = z.string().min(1).max(PANEL_MAX_LABEL_CHARS);
const prose = z.string().max(PANEL_MAX_PROSE_CHARS);
const value = z.string().max(PANEL_MAX_VALUE_CHARS);
const containerId = z
  .string()
  .regex(CONTAINER_ID_PATTERN, 'an id is 1-64 of letters, digits, _ . -')
  .optional();
const tone = z.enum(['info', 'success', 'warning', 'danger']);
/** Children are validated one by one (validate.ts) so errors name the exact path. */
const children = z.array(z.unknown());

export const componentSchemas = {
  Text: z.strictObject({ type: z.literal('Text'), text: prose, muted: z.boolean().optional() }),
  Heading: z.strictObject({
    type: z.literal('Heading'),
    text: label,
    level: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(2),
  }),
  Card: z.strictObject({
    type: z.literal('Card'),
    id: containerId,
    title: label.optional(),
    children: children.default([]),
  }),
  Stack: z.strictObject({
    type: z.literal('Stack'),
    id: containerId,
    direction: z.enum(['row', 'column']).default('column'),
    gap: z.enum(['none', 'small', 'medium', 'large']).default('medium'),
    children: children.default([]),
  }),
  Badge: z.strictObject({
    type: z.literal('Badge'),
    label,
    tone: z.enum(['neutral', 'info', 'success', 'warning', 'danger']).default('neutral'),
  }),
  KeyValue: z.strictObject({
    type: z.literal('KeyValue'),
    items: z.array(z.strictObject({ label, value })).min(1),
  }),
  Table: z.strictObject({
    type: z.literal('Table'),
    headers: z.array(label).min(1),
    rows: z.array(z.array(value)),
  }),
  CodeBlock: z.strictObject({
    type: z.literal('CodeBlock'),
    code: z.string().max(PANEL_MAX_CODE_CHARS),
    language: z.string().max(40).optional(),
  }),
  Alert: z.strictObject({
    type: z.literal('Alert'),
    tone: tone.default('info'),
    title: label.optional(),
    text: prose,
  }),
  Divider: z.strictObject({ type: z.literal('Divider') }),
  Link: z.strictObject({
    type: z.literal('Link'),
    label,
    href: z.string().max(2_000).regex(LINK_PATTERN, 'a link must be an http, https or mailto URL'),
  }),
} as const;

export type ComponentName = keyof typeof componentSchemas;
export const COMPONENT_NAMES = Object.keys(componentSchemas) as ComponentName[];
export const CONTAINER_NAMES = ['Card', 'Stack'] as const;

type Fields<K extends ComponentName> = Omit<z.output<(typeof componentSchemas)[K]>, 'children'>;
export type TextNode = Fields<'Text'>;
export type HeadingNode = Fields<'Heading'>;
export type CardNode = Fields<'Card'> & { children: PanelNode[] };
export type StackNode = Fields<'Stack'> & { children: PanelNode[] };
export type BadgeNode = Fields<'Badge'>;
export type KeyValueNode = Fields<'KeyValue'>;
export type TableNode = Fields<'Table'>;
export type CodeBlockNode = Fields<'CodeBlock'>;
export type AlertNode = Fields<'Alert'>;
export type DividerNode = Fields<'Divider'>;
export type LinkNode = Fields<'Link'>;
/**
 * A component outside the vocabulary: kept as its bare type name (every other field dropped) and
 * drawn as a placeholder row, never interpreted.
 */
export interface UnknownNode {
  type: string;
  unsupported: true;
}

export type KnownNode =
  | TextNode
  | HeadingNode
  | CardNode
  | StackNode
  | BadgeNode
  | KeyValueNode
  | TableNode
  | CodeBlockNode
  | AlertNode
  | DividerNode
  | LinkNode;
export type PanelNode = KnownNode | UnknownNode;
export type ContainerNode = CardNode | StackNode;

export function isKnownComponent(type: string): type is ComponentName {
  return Object.hasOwn(componentSchemas, type);
}

export function isContainer(node: PanelNode): node is ContainerNode {
  return !('unsupported' in node) && (node.type === 'Card' || node.type === 'Stack');
}

/** A compact description of the vocabulary, for the model (tool description). */
export const VOCABULARY_TEXT = [
  'Text {text (<=2000), muted?: boolean}',
  'Heading {text (<=200), level: 1|2|3}',
  'Card {id?, title?, children: [nodes]}',
  'Stack {id?, direction: "row"|"column", gap?: "none"|"small"|"medium"|"large", children: [nodes]}',
  'Badge {label, tone: "neutral"|"info"|"success"|"warning"|"danger"}',
  'KeyValue {items: [{label, value (<=500)}]}',
  'Table {headers: [string], rows: [[string (<=500)]]}',
  'CodeBlock {code (<=20000), language?}',
  'Alert {tone: "info"|"success"|"warning"|"danger", title?, text (<=2000)}',
  'Divider {}',
  'Link {label, href: http(s) or mailto URL}',
].join('; ');
