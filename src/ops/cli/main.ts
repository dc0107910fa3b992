// The operations command line (`dialysis-ops`, `npm run ops -- <command>`): one small module per subcommand,
// registered from commands/index.ts.
import { Command, Option } from 'commander';
import { cliRuntime } from './cliRuntime.js';
import { commands } from './commands/index.js';

const program = new Command('dialysis-ops')
  .description('Operate the dialysis records service: through the running service, or on its data directory when it is stopped')
  .option('--data-dir <dir>', 'the data directory (default: DATA_DIR or ./data, like the service)')
  .option('--json', 'answer one JSON object on stdout (for scripts); no progress display')
  .addOption(
    new Option('--progress <kind>', 'progress display (default: bar on a terminal, lines otherwise)').choices(['bar', 'lines', 'none']),
  )
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

const runtime = cliRuntime();
for (const command of commands) command.register(program, runtime);

await program.parseAsync(process.argv);
