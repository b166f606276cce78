import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BashParser } from '../../electron/host/rules/bash-parser';
import { ShellJudge } from '../../electron/host/rules/match-rule';
import { decideByRules, type LoadedRule } from '../../electron/host/rules/permission-rules';
import { parseRule, type RuleKind } from '../../electron/host/rules/rule';
import { tempDir } from '../helpers/temp';

// The rules' verdicts against what bash actually runs. Commands are generated from a grammar of
// constructs (lists, pipelines, compound commands, functions, substitutions, here-documents,
// wrappers, sh -c and eval nesting, quoting and escapes, assignments, comments, computed names,
// brace and glob names, code run from data in arithmetic) over a few program names. Each runs
// under real bash, with a PATH holding only stubs that log their own name (the wrappers log, then exec the real one; `echo` and `true` are disabled as
// builtins in every bash, through BASH_ENV, so they run from PATH too). Then:
// - a deny rule Bash(P:*) that does not deny (nor ask about) the command: P did not run;
// - allow rules that allow it: every program that ran is one of theirs.

const RUNS = 200;
/** Programs the commands name; wrappers are programs too (they log before they exec). */
const PROGRAMS = ['rm', 'ls', 'git', 'npm', 'cat', 'echo', 'true'];
const WRAPPERS: Record<string, string> = {
  env: '/usr/bin/env',
  nice: '/usr/bin/nice',
  nohup: '/usr/bin/nohup',
  timeout: '/usr/bin/timeout',
  xargs: '/usr/bin/xargs',
  find: '/usr/bin/find',
  sh: '/bin/bash',
  bash: '/bin/bash',
};
const UNIVERSE = [...PROGRAMS, ...Object.keys(WRAPPERS)];

const world = tempDir('mewbo-bash-prop-');
afterAll(() => world.cleanup());
const stubs = join(world.dir, 'bin');
const bashEnv = join(world.dir, 'bash-env');
const work = join(world.dir, 'work');
mkdirSync(stubs);
mkdirSync(work);
writeFileSync(join(work, 'f1'), '');
writeFileSync(bashEnv, 'set +H\nenable -n echo true\n');
for (const p of UNIVERSE) {
  // /bin/sh (not bash): a stub's own `echo` is a builtin whatever BASH_ENV says.
  const body =
    p === 'echo'
      ? `echo echo >> "$STUB_LOG"\necho "$@"\n`
      : WRAPPERS[p]
        ? `echo ${p} >> "$STUB_LOG"\nexec ${WRAPPERS[p]} "$@"\n`
        : `echo ${p} >> "$STUB_LOG"\n`;
  writeFileSync(join(stubs, p), `#!/bin/sh\n${body}`);
  chmodSync(join(stubs, p), 0o755);
}

/**
 * The programs bash ran for a command. Its stderr is a pipe every process it starts inherits, so
 * this returns once they all ended (bash does not wait for a process substitution); each run logs
 * to a file of its own.
 */
function ran(command: string, n: number): Set<string> {
  const log = join(world.dir, `ran-${n}.log`);
  const r = spawnSync('/bin/bash', ['-c', command], {
    cwd: work,
    env: { PATH: stubs, STUB_LOG: log, BASH_ENV: bashEnv, HOME: world.dir },
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 20_000,
  });
  expect(r.error, command).toBeUndefined();
  return new Set(existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
}

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

const spelling = fc.constantFrom(...PROGRAMS).chain((p) =>
  fc.constantFrom(
    p,
    `\\${p}`,
    `'${p}'`,
    `"${p}"`,
    `${p[0]}""${p.slice(1)}`,
    `${stubs}/${p}`,
    // Expanded names: a brace (`{r,}m` is `rm m`) and a glob matching one stub.
    `{${p[0]},}${p.slice(1)}`,
    `${stubs}/${p.slice(0, -1)}?`,
  ),
);
const arg = fc.constantFrom('a', '-f', "'x y'", 'a#b', '"#"', '"$X"', '*', '\\#c', '$(true)');
const simple = fc
  .tuple(fc.constantFrom('', 'FOO=1 ', 'X=$(ls) '), spelling, fc.array(arg, { maxLength: 2 }))
  .map(([assign, prog, args]) => `${assign}${[prog, ...args].join(' ')}`);
const leaf = fc.oneof(
  simple,
  fc
    .tuple(
      fc.constantFrom(
        'command ',
        'env ',
        'env FOO=1 ',
        'nice -n 1 ',
        'nohup ',
        'timeout 5 ',
        'time ',
        'echo a | xargs ',
        'exec ',
      ),
      simple,
    )
    .map(([w, c]) => `${w}${c}`),
  fc.constantFrom(...PROGRAMS).map((p) => `find . -name f1 -exec ${p} {} \\;`),
  fc.constantFrom(...PROGRAMS).map((p) => `$(echo ${p}) a`),
  fc.constantFrom(...PROGRAMS).map((p) => `P=${p}; $P a`),
  // Code run from data: the subscript in X's value runs when arithmetic reads X.
  fc.constantFrom(...PROGRAMS).map((p) => `X='a[$(${p})]'; : $((X))`),
  fc.constantFrom(...PROGRAMS).map((p) => `X='a[$(${p})]'; let X`),
  simple.map((c) => `echo \`${c}\``),
);

const command: fc.Arbitrary<string> = fc.letrec<{ cmd: string }>((tie) => ({
  cmd: fc.oneof(
    { maxDepth: 3, depthSize: 'small' },
    leaf,
    fc
      .tuple(tie('cmd'), fc.constantFrom('; ', ' && ', ' || ', ' | ', ' & '), tie('cmd'))
      .map(([a, op, b]) => (op === ' & ' ? `${a} & ${b}; wait` : `${a}${op}${b}`)),
    fc
      .tuple(
        fc.constantFrom(
          'if %; then %; fi',
          '{ %; }',
          '(%)',
          'for i in 1; do %; done',
          'while false; do %; done',
          'case x in x) %;; esac',
          'f() { %; }; f',
          '! %',
          'echo $(%)',
          'echo "$(%)"',
          'cat <(%)',
          'X=$(%) true',
          '% # %',
          'cat <<EOF\n$(%)\nEOF\n',
          "cat <<'EOF'\n$(%)\nEOF\n",
        ),
        tie('cmd'),
        tie('cmd'),
      )
      .map(([form, a, b]) => form.replace('%', a).replace('%', b)),
    fc
      .tuple(fc.constantFrom('sh -c ', 'bash -c ', 'eval '), tie('cmd'))
      .map(([shell, c]) => `${shell}${sq(c)}`),
  ),
})).cmd;

const parser = await BashParser.load();
const rule = (kind: RuleKind, raw: string): LoadedRule => {
  const p = parseRule(raw);
  if (!p.ok) throw new Error(p.error);
  return { kind, rule: p.rule, scope: 'user' };
};

describe('rule verdicts against what bash runs', () => {
  it(`${RUNS} generated commands: not denied means not run, allowed means only allowed programs ran`, () => {
    let n = 0;
    fc.assert(
      fc.property(command, fc.nat(), (cmd, drop) => {
        const judge = new ShellJudge(parser);
        const call = { tool: 'aider_shell_tool', args: { command: cmd }, root: work };
        const programs = ran(cmd, n++);
        for (const p of UNIVERSE) {
          const verdict = decideByRules([rule('deny', `Bash(${p}:*)`)], call, judge);
          if (verdict === null) expect(programs.has(p), `${p} ran, not denied: ${cmd}`).toBe(false);
        }
        // The programs the analysis names, maybe less one: often allowed, sometimes not.
        const named = [
          ...new Set(
            judge
              .analysis(cmd)
              .commands.map((c) => c.words[0])
              .filter((w): w is string => !!w && UNIVERSE.includes(w)),
          ),
        ];
        const allowed = named.filter((_, i) => named.length < 2 || i !== drop % (named.length + 1));
        const verdict = decideByRules(
          allowed.map((p) => rule('allow', `Bash(${p}:*)`)),
          call,
          judge,
        );
        if (verdict?.kind === 'allow')
          for (const p of programs)
            expect(allowed, `${p} ran, allowed by ${allowed.join(', ')}: ${cmd}`).toContain(p);
      }),
      { numRuns: RUNS },
    );
    // Each run starts bash and its stubs (a few processes): seconds on a loaded machine.
  }, 300_000);
});
