// The subcommands of the operations command line: one line per module (each exports `register(program, runtime)`).
import type { Command } from 'commander';
import type { CliRuntime } from '../cliRuntime.js';
import * as rebuild from './rebuild.js';
import * as projections from './projections.js';
import * as verify from './verify.js';
import * as companies from './companies.js';
import * as accounts from './accounts.js';
import * as keys from './keys.js';
import * as backup from './backup.js';
import * as companyData from './companyData.js';

export interface CommandModule {
  register(program: Command, runtime: CliRuntime): void;
}

export const commands: CommandModule[] = [rebuild, projections, verify, companies, accounts, keys, backup, companyData];
