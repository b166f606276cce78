import type { ProjectTrust } from '../rules/project-trust';
import { loadSkills, type Skill } from './skill-catalog';
import type { ConfigWarning } from '../rules/settings-sources';

// The skills visible from a project root: the user's own always, the project's once trusted.
// Read on each use (a new SKILL.md appears on the next step without a restart).

export class SkillService {
  constructor(private readonly opts: { userDir: string; trust: ProjectTrust }) {}

  get userDir(): string {
    return this.opts.userDir;
  }

  load(root: string | null): Promise<{ skills: Skill[]; warnings: ConfigWarning[] }> {
    return loadSkills({
      userDir: this.opts.userDir,
      root,
      trusted: root !== null && this.opts.trust.isTrusted(root),
    });
  }
}
