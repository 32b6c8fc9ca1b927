// The project lints itself: TypeScript sources and tests with typescript-eslint's
// recommended rules, and the example service with this plugin (see `npm run demo`).
// The plugin's folder boundaries (eslint-plugin/src/README.md) are rules too: each
// analysis folder is entered through its index.ts, folders only import the layers below
// them, and no import cycle comes back.
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** The analysis folders, lowest layer first: a folder may import only the folders before it. */
const ANALYSIS_LAYERS = ['modules', 'clients', 'retry', 'errors'];
/** Stands alone: it neither imports nor is imported by the other analysis folders. */
const STANDALONE_FOLDERS = ['connection-string', 'infra'];
const ANALYSIS_FOLDERS = [...ANALYSIS_LAYERS, ...STANDALONE_FOLDERS];

/** `no-restricted-imports` patterns: what a file in `folder` must not import. */
function forbiddenImports(folder) {
  const layer = ANALYSIS_LAYERS.indexOf(folder);
  const higher = layer === -1 ? ANALYSIS_FOLDERS.filter((other) => other !== folder) : ANALYSIS_FOLDERS.slice(layer + 1);
  const allowed = ANALYSIS_FOLDERS.filter((other) => !higher.includes(other) && other !== folder);
  const patterns = [
    {
      // constants.ts imports nothing: the names the plugin shares with its hosts.
      regex: '^\\.\\./\\.\\./(?!constants$)',
      message: 'The analysis depends on nothing outside analysis/ but constants.ts (no rules, fix helpers or util).',
    },
  ];
  if (allowed.length > 0) {
    patterns.push({
      regex: `^\\.\\./(${allowed.join('|')})/`,
      message: 'Import another analysis folder through its index.ts (`../clients`, not `../clients/mongo-calls`).',
    });
  }
  if (higher.length > 0) {
    patterns.push({
      regex: `^\\.\\./(${higher.join('|')})(/|$)`,
      message: `analysis/${folder}/ sits below ${higher.join(', ')}: move the shared piece down instead of importing upwards.`,
    });
  }
  return patterns;
}

const pluginBoundaries = [
  ...ANALYSIS_FOLDERS.map((folder) => ({
    files: [`eslint-plugin/src/analysis/${folder}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: forbiddenImports(folder) }] },
  })),
  {
    files: ['eslint-plugin/src/analysis/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ANALYSIS_FOLDERS.map((folder) => `./${folder}`).concat(ANALYSIS_FOLDERS.map((folder) => `./${folder}/*`)), message: 'The shared analysis root (ast.ts, per-file-cache.ts…) depends on no analysis folder.' }] },
      ],
    },
  },
  {
    files: ['eslint-plugin/src/rules/**/*.ts', 'eslint-plugin/src/fix/**/*.ts', 'eslint-plugin/src/languages/**/*.ts', 'eslint-plugin/src/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/analysis/*/*', '!**/analysis/*/index'], message: 'Import an analysis folder through its index.ts (`../analysis/clients`).' }] },
      ],
    },
  },
  {
    files: ['server/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/eslint-plugin/src/*', '**/eslint-plugin/src/**'], message: 'The server uses the plugin through its package, `eslint-plugin-retry-safety`.' }] },
      ],
    },
  },
  {
    files: ['eslint-plugin/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
];

export default tseslint.config(
  {
    ignores: ['**/dist/', '**/node_modules/', 'examples/', 'test/fixtures/', 'bench/corpus/', '.e2e/', 'extension/out/'],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
  },
  ...pluginBoundaries,
);
