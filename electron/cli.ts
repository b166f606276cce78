import { commands } from './cli/commands';
import { exitWith, runCommand } from './cli/run-command';

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  return [
    'mewbo: run AI agent sessions on local projects',
    '',
    'Usage: mewbo <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'mewbo <command> --help' for a command's options.",
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help() + '\n');
    return name ? 0 : 2;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    process.stderr.write(`mewbo: unknown command '${name}'\n\n${help()}\n`);
    return 2;
  }
  return runCommand(name, await entry.load(), rest);
}

exitWith(main(process.argv.slice(2)));
