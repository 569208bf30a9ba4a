// The layers of Berth (issue 20), checked by `npm run lint:layers`:
//
//   cli/                     launchers: may import anything (but cli/client/, the customers' CLI: only the SDK)
//   sdk/                     the SDKs: import none of the above
//   panel/                   the web panel: a browser app that reaches Berth only through the TypeScript SDK
//   api/   workers/   agent/ the processes: api and workers never import each other; the agent
//                            runs on hosting nodes and shares only the protocol with the rest
//   shared/                  config, db, domains, jobs, protocol: imports none of the above
//
// test/ is not cruised: a test may reach into any layer.

/** What the agent may use of shared/: the protocol it speaks, the logger, and ConfigError (its own config fails like Berth's). */
const AGENT_MAY_USE = ['^shared/agent-protocol/', '^shared/logger[.]ts$', '^shared/config/config-error[.]ts$'];

/** Queries: the models, the knex connection module, and the query builders themselves. */
const QUERIES = ['^shared/db/', '(^|/)node_modules/(knex|objection)/'];

module.exports = {
  forbidden: [
    {
      name: 'shared-imports-no-process',
      comment: 'shared/ is the bottom layer: api, workers, agent and cli build on it, never the other way round.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(api|workers|agent|cli)/' },
    },
    {
      name: 'customer-cli-speaks-only-the-api',
      comment: "cli/client/ is the customers' command line: it reaches Berth through the TypeScript SDK, as any customer's script does.",
      severity: 'error',
      from: { path: '^cli/client/' },
      to: { path: '^(api|workers|agent|shared)/' },
    },
    {
      name: 'sdk-stands-alone',
      comment: 'The SDKs are packed and shipped on their own: they know the API from its document, not from our code.',
      severity: 'error',
      from: { path: '^sdk/' },
      to: { path: '^(api|workers|agent|shared|cli)/' },
    },
    {
      name: 'panel-speaks-only-the-api',
      comment: 'The web panel runs in the browser and reaches Berth through the TypeScript SDK, like any customer program: never our server code.',
      severity: 'error',
      from: { path: '^panel/' },
      to: { path: '^(api|workers|agent|shared|cli)/' },
    },
    {
      name: 'api-imports-no-workers',
      comment: 'The API and the workers are separate processes: what both need lives in shared/. cli/ starts them.',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: '^(workers|cli)/' },
    },
    {
      name: 'workers-import-no-api',
      comment: 'The workers and the API are separate processes: what both need lives in shared/. cli/ starts them.',
      severity: 'error',
      from: { path: '^workers/' },
      to: { path: '^(api|cli)/' },
    },
    {
      name: 'agent-imports-only-the-protocol',
      comment: 'The agent is built alone for the nodes (ops/build-agent.mjs): of Berth it knows only the protocol, the logger and ConfigError.',
      severity: 'error',
      from: { path: '^agent/' },
      to: { path: '^(shared|api|workers|cli)/', pathNot: AGENT_MAY_USE },
    },
    {
      name: 'routes-query-nothing',
      comment: 'A route parses, authorizes, calls a domain function and shapes the answer: it imports no model, no query builder (not even their types).',
      severity: 'error',
      from: { path: '^api/.+[.]routes[.]ts$' },
      to: { path: QUERIES },
    },
    {
      name: 'api-helpers-query-nothing',
      comment: "The helpers of the routes do not query either; they may name a row's type to shape a view of it.",
      severity: 'error',
      from: { path: '^api/' },
      to: { path: QUERIES, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-value-cycles',
      comment:
        'A cycle that carries values makes the load order matter (a value read before its module ran is undefined). Type-only cycles vanish at run time.',
      severity: 'error',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-new-type-cycles',
      comment:
        'Type-only cycles are allowed up to 2 (issue 20); this names the one there is, so a new one fails. workers/registry.ts ' +
        'lists every processor while processors take their WorkerDeps type from it. A new cycle: give the shared types a file of their own.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { pathNot: ['^workers/registry[.]ts$'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^test/' },
    // type-only imports are dependencies too (they are what the two cycle rules tell apart)
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
