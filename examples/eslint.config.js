// How a project adopts the plugin: the strict preset for code, and the
// connection-strings preset so `.env`, JSON, YAML… files are checked too.
import tsParser from '@typescript-eslint/parser';
import retrySafety from 'eslint-plugin-retry-safety';

export default [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tsParser },
  },
  ...retrySafety.configs.strict,
  retrySafety.configs['connection-strings'],
  {
    settings: {
      // The cluster runs DocumentDB 8.0.2, which supports retryable writes.
      'retry-safety': { documentdb: { engineVersion: '8.0.2' } },
    },
  },
];
