// zod/mini, like the device frames: the phone page bundles this schema.
import * as z from 'zod/mini';
import { isObject } from '../is-object';

// An MCP server's form (elicitation/create, form mode) as the app reads it. The spec allows only a
// flat object of primitive fields: strings (with a format: email, uri, date, date-time; length
// bounds), numbers and integers (bounds), booleans, and enums (single choice, titled by `oneOf`
// const/title or the older `enumNames`; or several choices, an array of enum items), each with an
// optional default. The host turns the server's JSON Schema into this normalized form once
// (parseRequestedSchema): what is not a flat form is refused with the reason, never shown. The
// desktop card, the phone card and the host's check of the answer all read the same form and
// validate with the same checkValue.

/** More fields than this is not a question for a person: the request is refused. */
export const ELICIT_MAX_FIELDS = 32;
/** Options of one enum field. */
export const ELICIT_MAX_OPTIONS = 100;
/** The server's message above its form or link: a question, not a document. */
export const ELICIT_MAX_MESSAGE_CHARS = 4_000;
/** A string value the user types (whatever maxLength the server asks). */
export const ELICIT_MAX_TEXT_CHARS = 10_000;

export const TEXT_FORMATS = ['email', 'uri', 'date', 'date-time'] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];

const option = z.object({ value: z.string(), label: z.string() });
const common = {
  name: z.string(),
  title: z.string(),
  description: z.optional(z.string()),
  required: z.boolean(),
};

export const elicitFieldSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('text'),
    ...common,
    format: z.optional(z.enum(TEXT_FORMATS)),
    min_length: z.optional(z.number()),
    max_length: z.optional(z.number()),
    default: z.optional(z.string()),
  }),
  z.object({
    kind: z.literal('number'),
    ...common,
    integer: z.boolean(),
    minimum: z.optional(z.number()),
    maximum: z.optional(z.number()),
    default: z.optional(z.number()),
  }),
  z.object({ kind: z.literal('boolean'), ...common, default: z.optional(z.boolean()) }),
  z.object({
    kind: z.literal('choice'),
    ...common,
    options: z.array(option),
    default: z.optional(z.string()),
  }),
  z.object({
    kind: z.literal('choices'),
    ...common,
    options: z.array(option),
    min_items: z.optional(z.number()),
    max_items: z.optional(z.number()),
    default: z.optional(z.array(z.string())),
  }),
]);
export type ElicitField = z.infer<typeof elicitFieldSchema>;

export const elicitFormSchema = z.object({ fields: z.array(elicitFieldSchema) });
export type ElicitForm = z.infer<typeof elicitFormSchema>;

/** A value of an accepted form, as the server receives it. */
export type ElicitValue = string | number | boolean | string[];
export type ElicitContent = Record<string, ElicitValue>;

type Parsed = { ok: true; form: ElicitForm } | { ok: false; error: string };

const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const optionalString = (v: unknown) => v === undefined || typeof v === 'string';

class SchemaError extends Error {}

/** Reads `requestedSchema` into a form, or says what in it is not the spec's flat schema. */
export function parseRequestedSchema(raw: unknown): Parsed {
  try {
    return { ok: true, form: readForm(raw) };
  } catch (err) {
    if (err instanceof SchemaError) return { ok: false, error: err.message };
    throw err;
  }
}

function readForm(raw: unknown): ElicitForm {
  const fail = (why: string) => {
    throw new SchemaError(`requestedSchema ${why}`);
  };
  if (!isObject(raw)) return fail('must be a JSON Schema object');
  if (raw.type !== 'object') return fail(`must have "type": "object" (got ${show(raw.type)})`);
  const props = raw.properties ?? {};
  if (!isObject(props)) return fail('"properties" must be an object of fields');
  const names = Object.keys(props);
  if (names.length > ELICIT_MAX_FIELDS)
    return fail(`has ${names.length} fields; at most ${ELICIT_MAX_FIELDS} are asked at once`);
  const required = raw.required ?? [];
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string'))
    return fail('"required" must be a list of field names');
  for (const r of required as string[])
    if (!names.includes(r)) return fail(`"required" names '${r}', which is not a field`);
  return {
    fields: names.map((name) =>
      readField(name, props[name], (required as string[]).includes(name)),
    ),
  };
}

function readField(name: string, raw: unknown, required: boolean): ElicitField {
  const fail = (why: string): never => {
    throw new SchemaError(`field '${name}' ${why}`);
  };
  if (!isObject(raw)) return fail('must be a schema object');
  for (const nested of ['properties', '$ref', 'allOf', 'additionalProperties', 'patternProperties'])
    if (nested in raw)
      fail(
        `uses "${nested}": a form is flat (strings, numbers, integers, booleans and enums only)`,
      );
  if (!optionalString(raw.title) || !optionalString(raw.description))
    fail('has a "title" or "description" that is not text');
  const common = {
    name,
    title: (raw.title as string | undefined)?.trim() || name,
    ...(typeof raw.description === 'string' && raw.description.trim()
      ? { description: raw.description }
      : {}),
    required,
  };
  let field: ElicitField;
  switch (raw.type) {
    case 'string':
      field =
        'enum' in raw || 'oneOf' in raw
          ? { kind: 'choice', ...common, options: readOptions(raw, fail) }
          : readText(raw, common, fail);
      break;
    case 'number':
    case 'integer': {
      for (const k of ['minimum', 'maximum'])
        if (raw[k] !== undefined && typeof raw[k] !== 'number') fail(`"${k}" must be a number`);
      const min = raw.minimum as number | undefined;
      const max = raw.maximum as number | undefined;
      if (min !== undefined && max !== undefined && min > max)
        fail(`has "minimum" ${min} above "maximum" ${max}`);
      field = {
        kind: 'number',
        ...common,
        integer: raw.type === 'integer',
        ...(min !== undefined ? { minimum: min } : {}),
        ...(max !== undefined ? { maximum: max } : {}),
      };
      break;
    }
    case 'boolean':
      field = { kind: 'boolean', ...common };
      break;
    case 'array': {
      const items = raw.items;
      if (!isObject(items) || !('enum' in items || 'anyOf' in items))
        fail('is an array: only a multiple choice ("items" with "enum" or "anyOf") is allowed');
      const bounds = readBounds(raw, 'minItems', 'maxItems', fail);
      field = {
        kind: 'choices',
        ...common,
        options: readOptions(
          { ...(items as object), oneOf: (items as Record<string, unknown>).anyOf },
          fail,
        ),
        ...(bounds.min !== undefined ? { min_items: bounds.min } : {}),
        ...(bounds.max !== undefined ? { max_items: bounds.max } : {}),
      };
      break;
    }
    default:
      return fail(
        `has type ${show(raw.type)}: a form field is a string, number, integer, boolean or enum`,
      );
  }
  if (raw.default !== undefined) {
    const bad = checkValue(field, raw.default);
    if (bad) fail(`has a default that does not fit it: ${bad}`);
    field = { ...field, default: raw.default } as ElicitField;
  }
  return field;
}

function readText(
  raw: Record<string, unknown>,
  common: Pick<ElicitField, 'name' | 'title' | 'description' | 'required'>,
  fail: (why: string) => never,
): ElicitField {
  const format = raw.format;
  if (format !== undefined && !TEXT_FORMATS.includes(format as TextFormat))
    fail(`has format ${show(format)}; the formats are ${TEXT_FORMATS.join(', ')}`);
  const bounds = readBounds(raw, 'minLength', 'maxLength', fail);
  return {
    kind: 'text',
    ...common,
    ...(format !== undefined ? { format: format as TextFormat } : {}),
    ...(bounds.min !== undefined ? { min_length: bounds.min } : {}),
    ...(bounds.max !== undefined ? { max_length: bounds.max } : {}),
  };
}

function readBounds(
  raw: Record<string, unknown>,
  minKey: string,
  maxKey: string,
  fail: (why: string) => never,
): { min?: number; max?: number } {
  const min = raw[minKey];
  const max = raw[maxKey];
  if (min !== undefined && !isCount(min)) fail(`"${minKey}" must be a whole number, 0 or more`);
  if (max !== undefined && !isCount(max)) fail(`"${maxKey}" must be a whole number, 0 or more`);
  if (min !== undefined && max !== undefined && (min as number) > (max as number))
    fail(`has "${minKey}" ${show(min)} above "${maxKey}" ${show(max)}`);
  return { min: min as number | undefined, max: max as number | undefined };
}

/** Options from `enum` (+ `enumNames`) or `oneOf` [{const, title}]. */
function readOptions(
  raw: Record<string, unknown>,
  fail: (why: string) => never,
): { value: string; label: string }[] {
  let options: { value: string; label: string }[];
  if (Array.isArray(raw.oneOf)) {
    options = raw.oneOf.map((o) => {
      if (!isObject(o) || typeof o.const !== 'string')
        return fail('has a "oneOf"/"anyOf" option without a text "const"');
      return { value: o.const, label: typeof o.title === 'string' ? o.title : o.const };
    });
  } else {
    const values = raw.enum;
    if (!Array.isArray(values) || !values.every((v) => typeof v === 'string'))
      return fail('has an "enum" that is not a list of text values');
    const names = raw.enumNames;
    if (
      names !== undefined &&
      (!Array.isArray(names) ||
        names.length !== values.length ||
        !names.every((n) => typeof n === 'string'))
    )
      fail('has "enumNames" that do not match its "enum" one for one');
    options = (values as string[]).map((value, i) => ({
      value,
      label: (names as string[] | undefined)?.[i] ?? value,
    }));
  }
  if (options.length === 0) fail('offers no options');
  if (options.length > ELICIT_MAX_OPTIONS)
    fail(`offers ${options.length} options; at most ${ELICIT_MAX_OPTIONS}`);
  if (new Set(options.map((o) => o.value)).size !== options.length)
    fail('offers the same option twice');
  return options;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function formatProblem(format: TextFormat, text: string): string | null {
  switch (format) {
    case 'email':
      return EMAIL.test(text) ? null : 'must be an email address (name@example.com)';
    case 'uri':
      // RFC 3986's scheme, then anything without blanks (shared/ has no URL parser to lean on).
      return /^[a-z][a-z0-9+.-]*:[^\s<>"]+$/i.test(text)
        ? null
        : 'must be an address with its scheme (https://example.com)';
    case 'date':
      return validDate(text) ? null : 'must be a date as YYYY-MM-DD';
    case 'date-time':
      return DATE_TIME.test(text) && validDate(text.slice(0, 10)) && !Number.isNaN(Date.parse(text))
        ? null
        : 'must be a date and time with its zone (2026-12-05T09:30:00Z)';
  }
}

/** What is wrong with `value` for `field` (null when it fits): the same words on every side. */
export function checkValue(field: ElicitField, value: unknown): string | null {
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return 'must be text';
      if (value.length > ELICIT_MAX_TEXT_CHARS)
        return `must be at most ${ELICIT_MAX_TEXT_CHARS} characters`;
      if (field.min_length !== undefined && value.length < field.min_length)
        return `must be at least ${field.min_length} characters`;
      if (field.max_length !== undefined && value.length > field.max_length)
        return `must be at most ${field.max_length} characters`;
      return field.format ? formatProblem(field.format, value) : null;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.integer && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum)
        return `must be ${field.minimum} or more`;
      if (field.maximum !== undefined && value > field.maximum)
        return `must be ${field.maximum} or less`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be yes or no';
    case 'choice':
      return typeof value === 'string' && field.options.some((o) => o.value === value)
        ? null
        : 'must be one of the options';
    case 'choices': {
      if (!Array.isArray(value) || !value.every((v) => field.options.some((o) => o.value === v)))
        return 'must be options of the list';
      if (new Set(value).size !== value.length) return 'names an option twice';
      if (field.min_items !== undefined && value.length < field.min_items)
        return `needs at least ${field.min_items} choices`;
      if (field.max_items !== undefined && value.length > field.max_items)
        return `takes at most ${field.max_items} choices`;
      return null;
    }
  }
}

/** How a text or number field is typed in: the HTML input's type, and an example to show. */
export function inputKind(field: ElicitField): { type: string; placeholder?: string } {
  if (field.kind === 'number') return { type: 'number' };
  if (field.kind !== 'text') return { type: 'text' };
  switch (field.format) {
    case 'email':
      return { type: 'email' };
    case 'uri':
      return { type: 'url' };
    case 'date':
      return { type: 'date' };
    case 'date-time':
      return { type: 'text', placeholder: '2026-12-05T09:30:00Z' };
    default:
      return { type: 'text' };
  }
}

/** What a form's input holds: text as typed (numbers too), a checkbox, the options ticked. */
export type ElicitInput = string | boolean | string[];

/** What a field's input starts with: its default, else empty. */
export function initialInput(field: ElicitField): ElicitInput {
  switch (field.kind) {
    case 'boolean':
      return field.default ?? false;
    case 'choices':
      return field.default ?? [];
    case 'number':
      return field.default === undefined ? '' : String(field.default);
    default:
      return field.default ?? '';
  }
}

/**
 * The value the server gets for what was entered (none: left empty), or what is wrong with it,
 * worded to follow the field's title. The desktop card and the phone card read inputs with this.
 */
export function readInput(
  field: ElicitField,
  input: ElicitInput,
): { value?: ElicitValue; error?: string } {
  if (input === '') return field.required ? { error: 'is required' } : {};
  const value =
    field.kind === 'number' && typeof input === 'string'
      ? input.trim()
        ? Number(input)
        : NaN
      : input;
  const bad = checkValue(field, value);
  return bad ? { error: bad } : { value };
}

/**
 * What is wrong with an accepted form's content (null when it fits the form): every required
 * field given, no field the form does not have, each value fitting its field.
 */
export function checkContent(form: ElicitForm, content: unknown): string | null {
  if (!isObject(content)) return 'the answer must be an object of field values';
  for (const key of Object.keys(content))
    if (!form.fields.some((f) => f.name === key)) return `the form has no field '${key}'`;
  for (const field of form.fields) {
    const value = content[field.name];
    if (value === undefined) {
      if (field.required) return `“${field.title}” is required`;
      continue;
    }
    const bad = checkValue(field, value);
    if (bad) return `“${field.title}” ${bad}`;
  }
  return null;
}

function show(v: unknown): string {
  return v === undefined ? 'none' : JSON.stringify(v);
}
