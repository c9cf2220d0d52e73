// payctl's layers (docs/architecture.md), checked by `npm test` and `npm run check`:
// a file imports only from its own layer and those below it, and no import, type-only ones
// included, closes a circle. Each layer is a list of path patterns under src/.
const LAYERS = [
  // Process and terminal facts, and the API document's vocabulary (generated types, its time format).
  ['base', ['^src/(errors|builtin|version|redact|jwt|stdin|text|money|process-io|command-line)[.]ts$', '^src/validation/', '^src/api/(types|time)[.]ts$']],
  // Formats and writers of what payctl prints; given streams and choices, never the config.
  ['output', ['^src/output/']],
  // The command line's vocabulary (options, the global flags) and the run's streams and prompts.
  ['terminal', ['^src/(flags|iostreams|prompt)[.]ts$']],
  ['config', ['^src/config/']],
  ['api', ['^src/http/', '^src/api/(?!(types|time)[.]ts$)']],
  ['domains', ['^src/(withdrawal|batch|audit|ledger|sandbox)/', '^src/subaccount-names[.]ts$']],
  // What a command is handed: its context and the services made on first use.
  ['run', ['^src/(services|context)[.]ts$']],
  ['commands', ['^src/commands/', '^src/completion/']],
  ['main', ['^src/(main|cli)[.]ts$', '^src/main/']],
];

const pathsOf = (layers) => layers.flatMap(([, paths]) => paths);

/** A command group's files: its index (the declarations) and one file per verb. */
const GROUP_FILE = '^src/commands/[^/]+/[^/]+[.]ts$';

module.exports = {
  forbidden: [
    ...LAYERS.slice(0, -1).map(([name, paths], i) => ({
      name: `${name}-imports-upward`,
      comment: `the ${name} layer imports only from itself and the layers below it (${LAYERS.slice(0, i)
        .map(([below]) => below)
        .join(', ') || 'none'})`,
      severity: 'error',
      from: { path: paths },
      to: { path: pathsOf(LAYERS.slice(i + 1)) },
    })),
    {
      name: 'outside-the-layers',
      comment: 'every file of src/ belongs to a layer: add it to LAYERS in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^src/', pathNot: pathsOf(LAYERS) },
      to: {},
    },
    {
      name: 'no-circular',
      comment: 'no circle of imports, but that of a command group (next rule)',
      severity: 'error',
      from: { pathNot: GROUP_FILE },
      to: { circular: true },
    },
    {
      // A group's index.ts loads each verb's code on demand (import()), and each verb
      // reads its own declaration back from index.ts as a type (`Invocation<typeof spec>`):
      // that circle is erased from the build. Any circle without a type-only import is not.
      name: 'no-circular-in-groups',
      comment: 'within a command group, only a verb importing the type of its own declaration from the index closes a circle',
      severity: 'error',
      from: { path: GROUP_FILE },
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
    reporterOptions: {},
  },
};
