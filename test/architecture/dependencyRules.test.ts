// The dependency rules of .dependency-cruiser.cjs, run by the real CLI over a small tree that breaks each
// rule once: every break must fail the check with a message naming its rule, and a clean tree must pass.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const depcruise = path.join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

async function writeTree(dir: string, files: Record<string, string>): Promise<void> {
  const all = { 'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }), ...files };
  for (const [name, text] of Object.entries(all)) {
    await fs.mkdir(path.join(dir, path.dirname(name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), text);
  }
  await fs.symlink(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir').catch(() => undefined);
}

function cruise(dir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [depcruise, 'src', '--config', path.join(repo, '.dependency-cruiser.cjs')],
      { cwd: dir },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr });
      },
    );
  });
}

const CLEAN_TREE: Record<string, string> = {
  'src/stores/eventStore.ts': 'export const store = 1;\n',
  'src/stores/streamNames.ts': 'export const streamName = (t: string, c: string, id: string) => `${t}.${c}-${id}`;\n',
  'src/commands/decider.ts': 'export type Decider = { category: string };\n',
  // The contract: category and stream function (on the pure stream names), and a rule both wings judge.
  'src/commands/widgets/widgetEvents.ts':
    "import { streamName } from '../../stores/streamNames.js';\nexport const WIDGET_CATEGORY = 'widget';\nexport const widgetStream = (t: string, id: string) => streamName(t, WIDGET_CATEGORY, id);\n",
  'src/commands/widgets/shared/widgetRules.ts':
    "import { WIDGET_CATEGORY } from '../widgetEvents.js';\nexport const isWidget = (c: string) => c === WIDGET_CATEGORY;\n",
  'src/commands/widgets/decider.ts':
    "import type { Decider } from '../decider.js';\nimport { WIDGET_CATEGORY } from './widgetEvents.js';\nimport { isWidget } from './shared/widgetRules.js';\nexport const widgetDecider: Decider = { category: isWidget(WIDGET_CATEGORY) ? WIDGET_CATEGORY : '' };\n",
  'src/commands/widgets/widgetWrites.ts':
    "import { store } from '../../stores/eventStore.js';\nimport { widgetDecider } from './decider.js';\nexport const write = () => [store, widgetDecider];\n",
  'src/projections/widgets.ts':
    "import { WIDGET_CATEGORY } from '../commands/widgets/widgetEvents.js';\nimport { isWidget } from '../commands/widgets/shared/widgetRules.js';\nexport const projection = isWidget(WIDGET_CATEGORY);\n",
  'src/queries/widgets.ts':
    "import { projection } from '../projections/widgets.js';\nimport { widgetStream } from '../commands/widgets/widgetEvents.js';\nexport const list = () => [projection, widgetStream];\n",
  'src/http/routes/widgets.ts':
    "import { write } from '../../commands/widgets/widgetWrites.js';\nimport { list } from '../../queries/widgets.js';\nexport const routes = [write, list];\n",
  'src/server.ts': "import { routes } from './http/routes/widgets.js';\nexport const app = routes;\n",
};

describe('dependency rules (npm run lint:deps)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'deprules-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('passes a tree that follows the one-way flow', async () => {
    await writeTree(dir, CLEAN_TREE);
    const { code, output } = await cruise(dir);
    assert.equal(code, 0, output);
    assert.match(output, /no dependency violations/);
  });

  const breaks: [rule: string, files: Record<string, string>][] = [
    [
      'deciders-are-pure',
      {
        'src/commands/widgets/decider.ts':
          "import { store } from '../../stores/eventStore.js';\nexport const widgetDecider = { category: 'widget', store };\n",
      },
    ],
    [
      'deciders-are-pure',
      {
        'src/commands/widgets/events.ts':
          "import type { Decider } from '../decider.js';\nimport { list } from '../../queries/widgets.js';\nexport type X = Decider | typeof list;\n",
      },
    ],
    ['deciders-are-pure', { 'src/commands/widgets/rules.ts': "import type Koa from 'koa';\nexport type C = Koa.Context;\n" }],
    [
      'read-side-reaches-write-side-only-through-contracts',
      {
        'src/queries/widgets.ts':
          "import { widgetDecider } from '../commands/widgets/decider.js';\nexport const list = () => widgetDecider;\n",
      },
    ],
    [
      'read-side-reaches-write-side-only-through-contracts',
      {
        'src/projections/widgets.ts':
          "import type { Decider } from '../commands/decider.js';\nimport { widgetDecider } from '../commands/widgets/decider.js';\nexport const projection: Decider = widgetDecider;\n",
      },
    ],
    // Through a chain: a shared home that leans on the decider, an events file that leans on a write rule.
    [
      'read-side-reaches-write-side-only-through-contracts',
      {
        'src/commands/widgets/shared/widgetRules.ts':
          "import { widgetDecider } from '../decider.js';\nexport const isWidget = (c: string) => c === widgetDecider.category;\n",
        'src/commands/widgets/decider.ts':
          "import type { Decider } from '../decider.js';\nimport { WIDGET_CATEGORY } from './widgetEvents.js';\nexport const widgetDecider: Decider = { category: WIDGET_CATEGORY };\n",
      },
    ],
    [
      'read-side-reaches-write-side-only-through-contracts',
      {
        'src/commands/widgets/widgetEvents.ts':
          "import { streamName } from '../../stores/streamNames.js';\nimport { WIDGET_LIMIT } from './widgetLimits.js';\nexport const WIDGET_CATEGORY = 'widget';\nexport const widgetStream = (t: string, id: string) => streamName(t, WIDGET_CATEGORY, id + WIDGET_LIMIT);\n",
        'src/commands/widgets/widgetLimits.ts': 'export const WIDGET_LIMIT = 3;\n',
      },
    ],
    [
      'projections-never-import-http',
      {
        'src/projections/widgets.ts':
          "import type { routes } from '../http/routes/widgets.js';\nexport type R = typeof routes;\nexport const projection = 'w';\n",
      },
    ],
    [
      'only-the-composition-root-imports-http',
      {
        'src/commands/widgets/widgetWrites.ts':
          "import type { routes } from '../../http/routes/widgets.js';\nexport type R = typeof routes;\nexport const write = () => 1;\n",
      },
    ],
    [
      'write-side-never-imports-read-side',
      {
        'src/commands/widgets/widgetWrites.ts':
          "import { list } from '../../queries/widgets.js';\nimport { widgetDecider } from './decider.js';\nexport const write = () => [list, widgetDecider];\n",
      },
    ],
    [
      'write-side-never-imports-read-side',
      {
        'src/commands/widgets/widgetWrites.ts':
          "import { projection } from '../../projections/widgets.js';\nexport const write = () => projection;\n",
      },
    ],
    [
      'write-side-never-imports-read-side',
      {
        'src/facts/widgets.ts': "import { list } from '../queries/widgets.js';\nexport const widgetFacts = { list };\n",
        'src/commands/widgets/widgetWrites.ts':
          "import { widgetFacts } from '../../facts/widgets.js';\nexport const write = () => widgetFacts;\n",
      },
    ],
    [
      'stores-are-the-bottom-layer',
      { 'src/stores/eventStore.ts': "import { projection } from '../projections/widgets.js';\nexport const store = projection;\n" },
    ],
    [
      'no-circular',
      {
        'src/queries/other.ts': "import { list } from './widgets.js';\nexport const other = () => list;\n",
        'src/queries/widgets.ts': "import { other } from './other.js';\nexport const list = () => other;\n",
      },
    ],
  ];
  for (const [rule, files] of breaks) {
    it(`fails with "${rule}" when ${Object.keys(files).join(', ')} breaks it`, async () => {
      await writeTree(dir, { ...CLEAN_TREE, ...files });
      const { code, output } = await cruise(dir);
      assert.notEqual(code, 0, output);
      assert.match(output, new RegExp(`error ${rule}:`));
    });
  }
});
