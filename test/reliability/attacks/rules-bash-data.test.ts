import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ShellJudge } from '../../../electron/host/rules/match-rule';
import type { LoadedRule } from '../../../electron/host/rules/permission-rules';
import { tempDir } from '../../helpers/temp';
import { RunHarness, resultsOf, shell } from '../../integration/rules/run-harness';
import { decide, loaded, parser } from './shell-verdicts';

// Issue #25, part 4: bash runs code held in data, where the command line never shows it. A value
// read as arithmetic or as a variable name has its subscript evaluated, command substitutions
// included (`payload` below holds `a[$(rm victim)]`, as a file the agent wrote could); a prompt
// expansion, a sourced file, a completion or key-binding command, a loaded shared object run code
// too. Each attack is first shown working: real bash removes the victim file. The control is the
// verdict the rules gave before this change (landed main 8ea035e, run on these very commands with
// the rules `allow Bash` and `deny Bash(rm:*)`): all allowed, but for those listed in HELD. Now the deny rule asks, with the
// reason (refused where nobody can be asked), and allow rules naming every program the command
// shows do not allow it.

const PAYLOAD = 'a[$(rm victim)]';

/** Attack, and the reason the rules now give. */
const ATTACKS: [string, RegExp][] = [
  ['x=$(cat payload); echo $((x))', /\$\(\(\.\.\.\)\) evaluates a variable's value as arithmetic/],
  ['x=$(cat payload); (( x ))', /\(\(\.\.\.\)\) evaluates/],
  ['x=$(cat payload); let y=x', /let evaluates/],
  ['x=$(cat payload); [[ $x -eq 0 ]]', /\[\[ -eq \]\] evaluates/],
  ['x=$(cat payload); for ((i = x; i < 0; i++)); do :; done', /for \(\(\.\.\.\)\) evaluates/],
  ['declare -i y; y=$(cat payload)', /declare -i makes the variable's values arithmetic/],
  ['f() { local -i y=$1; }; f "$(cat payload)"', /local -i makes/],
  ['declare -n r=$(cat payload); echo $r', /declare -n makes/],
  ['printf -v "$(cat payload)" %s 1', /printf -v assigns a variable named by a value/],
  ['x=$(cat payload); read "$x" <<< 1', /read of a word computed at run time/],
  ['sleep 1 & wait -p "$(cat payload)" -n', /wait -p assigns a variable named by a value/],
  ['a=(1 2); unset "$(cat payload)"', /unset of a word computed at run time/],
  ['x=$(cat payload); [[ -v $x ]]', /\[\[ -v \]\] uses a value as a variable name/],
  ['x=$(cat payload); [ -v "$x" ]', /test -v uses a value as a variable name/],
  ['x=$(cat payload); echo "${!x}"', /\$\{!name\} uses a value as a variable name/],
  ['x=$(cat payload); s=abc; echo "${s:x}"', /\$\{name:offset:length\} evaluates/],
  ['x=\'$(rm victim)\'; echo "${x@P}"', /\$\{x@P\} expands a value as a prompt/],
  ['source ./script', /source runs the commands in \.\/script/],
  ['. ./script', /source runs the commands in \.\/script/],
  ["compgen -C 'rm victim' x", /compgen -C \/ -W runs a command/],
  ["compgen -W '$(rm victim)' x", /compgen -C \/ -W runs a command or expands a word list/],
];
/** Needs a C compiler to build the shared object. */
const ENABLE: [string, RegExp] = [
  'enable -f ./evil.so evil',
  /enable -f loads a builtin from a shared object/,
];

/**
 * An option glued to its argument, which bash's getopt reads as the option and its argument. The
 * control: main db62db8 allowed each under the same rules (only a word of letters was read as
 * options), recorded before the fix.
 */
const GLUED: [string, RegExp][] = [
  ['hash -p/bin/rm ls; ls victim', /hash -p makes a name run another program/],
];
const GLUED_ENABLE: [string, RegExp] = [
  'enable -f./evil.so evil',
  /enable -f loads a builtin from a shared object/,
];

/**
 * test or [ named quoted or escaped, which bash runs as test and [ all the same. The control:
 * main 366529d allowed each under the same rules (the name was compared as written), recorded
 * before the fix.
 */
const QUOTED_TEST: [string, RegExp][] = [
  ['\'test\' -v "$(cat payload)"', /test -v uses a value as a variable name/],
  ['\\test -v "$(cat payload)"', /test -v uses a value as a variable name/],
  ['"[" -v "$(cat payload)" ]', /test -v uses a value as a variable name/],
];

/** Run in an interactive bash on a terminal, followed by the keys that set them off. */
const INTERACTIVE: [string, string, RegExp][] = [
  ["complete -C 'rm victim' foo", 'foo \t\n', /complete -C \/ -W runs a command/],
  ['bind -x \'"\\C-t": rm victim\'', '\x14', /bind -x runs a command when a key is pressed/],
  // Glued (see GLUED): allowed by main db62db8.
  ['bind -x\'"\\C-t": rm victim\'', '\x14', /bind -x runs a command when a key is pressed/],
];

/** Source the rules parse: the callback was not read before (allowed), now the deny rule denies. */
const PARSED = "mapfile -C 'rm victim' -c 1 lines <<< x";

/** Held before this change too (parsed, or a variable bash runs code from): still denied. */
const HELD: string[] = [
  "trap 'rm victim' EXIT",
  'BASH_ENV=./script bash -c true',
  'ENV=./script sh -i',
  "PROMPT_COMMAND='rm victim' bash --norc -i",
  "shopt -s expand_aliases; alias ls='rm victim'\nls",
];

const DENY_RM = [loaded('allow', 'Bash'), loaded('deny', 'Bash(rm:*)')];

/** Allow rules for every program the command names but rm: they still must not allow it. */
function allowAllButRm(command: string): LoadedRule[] {
  const named = new ShellJudge(parser)
    .analysis(command)
    .commands.map((c) => c.words[0])
    .filter((w): w is string => !!w && w !== 'rm');
  return [...new Set(named)].map((p) => loaded('allow', `Bash(${p}:*)`));
}

const world = tempDir('mewbo-bash-data-');
afterAll(() => world.cleanup());
const evil = join(world.dir, 'evil.so');
// A shared object whose constructor removes ./victim: what `enable -f` loads runs at once.
writeFileSync(
  join(world.dir, 'evil.c'),
  '#include <unistd.h>\n__attribute__((constructor)) static void run(void) { unlink("victim"); }\n',
);
const cc = spawnSync('cc', ['-shared', '-fPIC', '-o', evil, join(world.dir, 'evil.c')]);
const haveCc = cc.status === 0;

let n = 0;
let work: string;
beforeEach(() => {
  work = join(world.dir, `work-${n++}`);
  mkdirSync(work);
  writeFileSync(join(work, 'victim'), 'keep me');
  writeFileSync(join(work, 'payload'), PAYLOAD);
  writeFileSync(join(work, 'script'), 'rm victim\n');
  if (haveCc) copyFileSync(evil, join(work, 'evil.so'));
});

const env = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: world.dir });

/** Real bash, as the shell tool runs a command (`bash -c`), its input empty. */
function bash(command: string): void {
  const r = spawnSync('/bin/bash', ['-c', command], {
    cwd: work,
    env: env(),
    stdio: ['ignore', 'ignore', 'ignore'],
    timeout: 50_000,
  });
  expect(r.error).toBeUndefined();
}

/** An interactive bash on a terminal (script(1) gives it one), typed `command`, then `keys`. */
function interactive(command: string, keys: string): void {
  const r = spawnSync('script', ['-qc', 'bash --norc --noprofile -i', '/dev/null'], {
    cwd: work,
    env: { ...env(), TERM: 'dumb' },
    input: `${command}\n${keys}exit\n`,
    stdio: ['pipe', 'ignore', 'ignore'],
    timeout: 50_000,
  });
  expect(r.error).toBeUndefined();
}

const victimGone = () => !existsSync(join(work, 'victim'));

describe('a deny rule Bash(rm:*) against rm run from data', () => {
  const attack = (command: string, why: RegExp) => {
    bash(command);
    expect(victimGone(), 'bash runs rm').toBe(true);
    const verdict = decide(DENY_RM, command);
    expect(verdict?.kind).toBe('ask');
    expect(verdict?.why).toMatch(/^the deny rule "Bash\(rm:\*\)" cannot be checked: /);
    expect(verdict?.why).toMatch(why);
    expect(decide(allowAllButRm(command), command)).toBeNull();
  };
  it.each(ATTACKS)('%s: bash runs rm, the rules allowed it, now they ask', attack);
  it.skipIf(!haveCc)(
    'enable -f ./evil.so evil: bash loads the object, whose constructor removes the file; now the rules ask',
    () => attack(...ENABLE),
  );
  it.each(GLUED)(
    '%s: bash reads the glued option, runs rm; the rules allowed it, now they ask',
    attack,
  );
  it.each(QUOTED_TEST)(
    '%s: bash runs test, whose -v runs rm; the rules allowed it, now they ask',
    attack,
  );
  it.skipIf(!haveCc)(
    'enable -f./evil.so evil: the glued option loads the object too; the rules allowed it, now they ask',
    () => attack(...GLUED_ENABLE),
  );

  it.each(INTERACTIVE)(
    '%s in an interactive shell: a key runs rm, the rules allowed it, now they ask',
    (attack, keys, why) => {
      interactive(attack, keys);
      expect(victimGone(), 'bash runs rm').toBe(true);
      const verdict = decide(DENY_RM, attack);
      expect(verdict?.kind).toBe('ask');
      expect(verdict?.why).toMatch(why);
      expect(decide(allowAllButRm(attack), attack)).toBeNull();
    },
  );

  it(`${PARSED}: bash runs the callback, the rules allowed it, now the deny rule denies it`, () => {
    bash(PARSED);
    expect(victimGone(), 'bash runs rm').toBe(true);
    expect(decide(DENY_RM, PARSED)?.kind).toBe('deny');
    expect(decide(allowAllButRm(PARSED), PARSED)).toBeNull();
  });

  it.each(HELD)('%s: bash runs rm, and the deny rule denies it', (attack) => {
    bash(attack);
    expect(victimGone(), 'bash runs rm').toBe(true);
    expect(decide(DENY_RM, attack)?.kind).toBe('deny');
    expect(decide(allowAllButRm(attack), attack)).toBeNull();
  });

  it('a literal arithmetic, subscript or test is still judged, and allowed by its rules', () => {
    const command = 'echo $((1 + 2)) ${a[0]} && [[ 1 -eq 1 ]] && printf -v out %s 1';
    expect(decide(DENY_RM, command)?.kind).toBe('allow');
    expect(
      decide([loaded('allow', 'Bash(echo:*)'), loaded('allow', 'Bash(printf:*)')], command),
    ).toMatchObject({ kind: 'allow' });
  });
});

describe('rm run from data, through mewbo run', () => {
  let h: RunHarness;
  beforeEach(async () => {
    h = await RunHarness.start();
  });
  afterEach(async () => {
    await h.close();
  });

  it('auto mode runs it without the rule; with the deny rule headless refuses it with the reason', async () => {
    const attack = 'x=$(cat payload); echo $((x))';
    const plant = () => {
      h.write('victim', 'keep me', 'project');
      h.write('payload', PAYLOAD, 'project');
    };
    plant();
    h.fake.script.push({ toolCalls: [shell(attack)] }, { text: 'ok' });
    await h.run(['--permission-mode', 'auto', 'go']);
    expect(existsSync(join(h.project, 'victim')), 'bash runs rm').toBe(false);

    h.userConfig({ permissions: { deny: ['Bash(rm:*)'] } });
    plant();
    h.fake.script.push({ toolCalls: [shell(attack)] }, { text: 'ok' });
    const r = await h.run(['--permission-mode', 'auto', 'go']);
    expect(resultsOf(r)[0]).toMatchObject({ code: 'approval_required' });
    expect(String(resultsOf(r)[0]!.message)).toMatch(
      /the deny rule "Bash\(rm:\*\)" cannot be checked: \$\(\(\.\.\.\)\) evaluates a variable's value as arithmetic/,
    );
    expect(existsSync(join(h.project, 'victim'))).toBe(true);
  });
});
