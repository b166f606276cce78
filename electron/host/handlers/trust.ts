import type { HandlerMap, TopicProvider } from '../rpc/router';
import { toDisposable } from '../lifecycle/disposable';
import type { WorkspaceTrust } from '../trust/workspace-trust';
import { previewTrust, type TrustPreviewSource } from '../trust/trust-preview';

type TrustHandlers = Pick<
  HandlerMap,
  'trust.list' | 'trust.status' | 'trust.grant' | 'trust.revoke'
>;

export function trustHandlers(
  trust: WorkspaceTrust,
  preview: readonly TrustPreviewSource[],
): TrustHandlers {
  return {
    'trust.list': async () => ({ projects: trust.list() }),
    'trust.status': async (req) => ({
      path: req.path,
      trusted: trust.isTrusted(req.path),
      would_start: await previewTrust(await trust.filesOf(req.path), preview),
      changed: await trust.contentChanges(req.path),
    }),
    'trust.grant': async (req) => ({ projects: await trust.trust(req.path) }),
    'trust.revoke': async (req) => ({ projects: await trust.revoke(req.path) }),
  };
}

/** `trust`: the whole trusted list after every change (Settings, the trust prompt). */
export function trustTopic(trust: WorkspaceTrust): TopicProvider {
  return async (_rest, _cursor, sink) => {
    const sub = trust.onDidChange((projects) => sink({ type: 'trust', projects }));
    return toDisposable(() => sub.dispose());
  };
}
