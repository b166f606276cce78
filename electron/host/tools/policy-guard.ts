import { realpathSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { errorPayload, type ErrorPayload } from '../../../shared/tools/payload';
import { policyRefusal } from '../rules/policy-writes';
import { isPolicyPath } from '../sandbox/policy-paths';
import type { ToolContext } from './tool';

// The edit tools' last word on policy files, asked with the real paths they are about to write
// (after every link is followed and right before the write, so a link swapped in after the
// approval leads here, not into .mewbo/settings.json): a policy path is written only when the
// caller approved that very path for this call (ToolContext.allowsPolicyWrite).

export function policyWriteRefused(
  ctx: ToolContext,
  tool: string,
  paths: readonly string[],
): ErrorPayload | null {
  const root = realpathSync(ctx.root);
  const blocked = paths
    .map((p) => relative(root, p).split(sep).join('/'))
    .filter((rel) => isPolicyPath(rel) && !ctx.allowsPolicyWrite?.(tool, rel));
  if (!blocked.length) return null;
  return errorPayload(
    'policy_file',
    policyRefusal(blocked, 'this call was not approved to write there'),
    {
      paths: blocked,
    },
  );
}
