// The project lints itself: TypeScript sources and tests with typescript-eslint's
// recommended rules, and the example service with this plugin (see `npm run demo`).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/', '**/node_modules/', 'examples/', 'test/fixtures/', 'bench/corpus/', '.e2e/', 'extension/out/'],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
  },
);
