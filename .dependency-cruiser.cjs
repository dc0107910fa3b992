// The one-way CQRS flow (architecture.md, Layout), checked in `npm test`: a violation names its rule.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'deciders-are-pure',
      comment:
        'A write model (events, state, decider, rules under src/commands/<group>/) imports nothing from http, stores, ' +
        'projections, queries or Koa; only the orchestration files (*Writes.ts) may load and append.',
      severity: 'error',
      from: { path: ['^src/commands/[^/]+/', '^src/commands/(decider|eventIds)[.]ts$'], pathNot: '[wW]rites[.]ts$' },
      to: {
        path: ['^src/(http|stores|projections|queries)/', '(^|/)node_modules/(koa|@koa/[^/]+|koa-[^/]+)/'],
        // Stream names are pure: an event contract builds its stream function on them.
        pathNot: '^src/stores/streamNames[.]ts$',
      },
    },
    {
      name: 'read-side-reaches-write-side-only-through-contracts',
      comment:
        'Queries and projections see the write side only through its contracts, directly or through any chain of ' +
        'imports: the events files (event union, stream category and function, the value types events carry, with ' +
        'the *Types.ts files they spell them in), the shared/ homes of the rules both wings judge identically, and ' +
        'the generic decider.ts (DecidedEvent, CommandEnvelope, DomainError).',
      severity: 'error',
      from: { path: '^src/(queries|projections)/', pathNot: '[.]test[.]ts$' },
      to: {
        path: '^src/commands/',
        pathNot: [
          '[a-z](Events|Types)[.]ts$',
          '/events[.]ts$',
          '^src/commands/shared/',
          '^src/commands/[a-z-]+/shared/',
          '^src/commands/decider[.]ts$',
        ],
        reachable: true,
      },
    },
    {
      name: 'write-side-never-imports-read-side',
      comment:
        'A command gets the facts it reads from read models through a port it declares (a loader wired at the composition ' +
        'root: src/facts/), never by importing a query, a projection or the loader itself.',
      severity: 'error',
      from: { path: '^src/commands/' },
      to: { path: '^src/(queries|projections|facts)/' },
    },
    {
      name: 'fact-loaders-are-wired-at-the-root',
      comment:
        'The loaders in src/facts reach commands only through AppServices.facts, wired in server.ts (issue 22 item 3). ' +
        'Dialisis routes still hand in their own loaders until they join AppServices.facts.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/facts/', '^src/server[.]ts$', '^src/http/routes/dialisis/'] },
      to: { path: '^src/facts/' },
    },
    {
      name: 'projections-never-import-http',
      comment: 'A projection turns events into documents; it knows nothing of requests.',
      severity: 'error',
      from: { path: '^src/projections/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'only-the-composition-root-imports-http',
      comment: 'HTTP sits on top: only main.ts / server.ts (and http itself) import it.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/http/', '^src/(main|server)[.]ts$'] },
      to: { path: '^src/http/' },
    },
    {
      name: 'stores-are-the-bottom-layer',
      comment: 'Store adapters serve every layer and depend on none of them.',
      severity: 'error',
      from: { path: '^src/stores/' },
      to: { path: '^src/(commands|queries|projections|http|auth)/' },
    },
    {
      name: 'the-client-stands-alone',
      comment:
        'clients/typescript ships to integrators with the contract: it depends on its generated types and its runtime ' +
        '(openapi-fetch, otplib), never on the service, its tests or tools.',
      severity: 'error',
      from: { path: '^clients/' },
      to: { path: '^(src|test|bench|panel|scripts)/' },
    },
    {
      name: 'no-circular',
      comment: 'Import circles make the load order fragile and hide which module owns what.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve is a broken build.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a decider that names a store type depends on the store.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
