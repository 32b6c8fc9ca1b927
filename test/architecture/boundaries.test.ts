// The plugin's folder boundaries are lint rules (eslint.config.js); these cases show they
// catch each way of crossing them, and let the allowed imports through.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function getRestrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => /'([^']+)'/.exec(message.message)?.[1] ?? message.message);
}

const use = (names: string[]) => `export const used = [${names.join(', ')}];\n`;

describe('analysis folder boundaries', () => {
  it('lets a folder import its own files, the shared root and lower folders through their index', async () => {
    const code =
      "import { isFunctionNode } from '../ast';\n" +
      "import { findModuleReferences } from '../modules';\n" +
      "import { findMongoCalls } from './mongo-calls';\n" +
      use(['isFunctionNode', 'findModuleReferences', 'findMongoCalls']);
    expect(await getRestrictedImports('eslint-plugin/src/analysis/clients/example.ts', code)).toEqual([]);
  });

  it('rejects a deep import into another folder', async () => {
    const code = "import { findModuleReferences } from '../modules/module-references';\n" + use(['findModuleReferences']);
    expect(await getRestrictedImports('eslint-plugin/src/analysis/clients/example.ts', code)).toEqual(['../modules/module-references']);
  });

  it('rejects an import of a higher layer, even through its index', async () => {
    const code = "import { findRetryScopes } from '../retry';\n" + use(['findRetryScopes']);
    expect(await getRestrictedImports('eslint-plugin/src/analysis/clients/example.ts', code)).toEqual(['../retry']);
    const fromErrors = "import { findDbCalls } from '../clients';\n" + use(['findDbCalls']);
    expect(await getRestrictedImports('eslint-plugin/src/analysis/errors/example.ts', fromErrors)).toEqual([]);
  });

  it('keeps connection-string/ apart from the other folders', async () => {
    const code = "import { findDbCalls } from '../clients';\n" + use(['findDbCalls']);
    expect(await getRestrictedImports('eslint-plugin/src/analysis/connection-string/example.ts', code)).toEqual(['../clients']);
  });

  it('keeps infra/ apart from the other folders, connection-string/ included', async () => {
    const code = "import { getRetrySafetySettings } from '../connection-string';\nimport { INFRA_ROOT_KEY } from '../../constants';\n" + use(['getRetrySafetySettings', 'INFRA_ROOT_KEY']);
    expect(await getRestrictedImports('eslint-plugin/src/analysis/infra/example.ts', code)).toEqual(['../connection-string']);
    const fromConnectionString = "import { findInfraEngineVersions } from '../infra';\n" + use(['findInfraEngineVersions']);
    expect(await getRestrictedImports('eslint-plugin/src/analysis/connection-string/example.ts', fromConnectionString)).toEqual(['../infra']);
  });

  it('keeps everything outside analysis/ out of the analysis', async () => {
    const code = "import { createRule } from '../../util/create-rule';\nimport { getIndent } from '../../fix';\n" + use(['createRule', 'getIndent']);
    expect(await getRestrictedImports('eslint-plugin/src/analysis/retry/example.ts', code)).toEqual(['../../util/create-rule', '../../fix']);
  });

  it('makes rules import an analysis folder through its index', async () => {
    const code =
      "import { findDbCalls } from '../analysis/clients';\n" +
      "import { findMongoCalls } from '../analysis/clients/mongo-calls';\n" +
      use(['findDbCalls', 'findMongoCalls']);
    expect(await getRestrictedImports('eslint-plugin/src/rules/example.ts', code)).toEqual(['../analysis/clients/mongo-calls']);
  });

  it('makes the server use the plugin through its package', async () => {
    const code = "import { findDbCalls } from '../../eslint-plugin/src/analysis/clients';\n" + use(['findDbCalls']);
    expect(await getRestrictedImports('server/src/example.ts', code)).toEqual(['../../eslint-plugin/src/analysis/clients']);
  });
});
