#!/usr/bin/env node
// Launcher of the operations command line: runs src/ops/cli/main.ts under tsx, the way `npm start` runs the service.
import { pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
await import(pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '../src/ops/cli/main.ts')).href);
