import { commands } from './cli/commands';
import { UsageError } from './cli/usage-error';
import { ConfigError } from './host/config/config-error';

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
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`mewbo ${name}: ${err.message}\n${command.usage}\n`);
      return 2;
    }
    // configs/app.json holds a value the command will not act on: the message names the key.
    if (err instanceof ConfigError) {
      process.stderr.write(`mewbo ${name}: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`mewbo ${name}: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
