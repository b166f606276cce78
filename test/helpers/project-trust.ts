import type { ProjectTrust } from '../../electron/host/rules/project-trust';

// Workspace trust for tests of rules and settings that are not about trust: every project (and
// whatever its settings hold) trusted, or none.

export const TRUST_ALL_PROJECTS: ProjectTrust = {
  isTrusted: (root) => root !== null,
  trustsContent: async () => true,
  recordEdit: async () => {},
};

export const TRUST_NO_PROJECT: ProjectTrust = {
  isTrusted: () => false,
  trustsContent: async () => false,
  recordEdit: async () => {},
};
