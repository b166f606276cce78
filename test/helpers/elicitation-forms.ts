// A form an MCP server asks with (elicitation/create requestedSchema), for the tests that drive the
// cards: every kind of field the desktop and the phone draw, with defaults and required fields.
export const BILLING_FORM = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', title: 'Invoice email' },
    seats: { type: 'integer', title: 'Seats', minimum: 1, maximum: 50, default: 2 },
    plan: {
      type: 'string',
      title: 'Plan',
      oneOf: [
        { const: 'team', title: 'Team' },
        { const: 'business', title: 'Business' },
      ],
      default: 'team',
    },
    paper: { type: 'boolean', title: 'Also send a paper invoice', default: false },
  },
  required: ['email', 'plan'],
};
