import { describe, expect, it } from 'vitest';
import { SETTING_KEYS, defaultSettings, readInitializationSettings, readSettings, readWorkspaceFolders, toEslintSettings } from '../../server/src/settings';
import { maskSecrets } from '../../server/src/log';

describe('settings', () => {
  it('reads nested and dotted keys and drops malformed values', () => {
    expect(
      readSettings({
        enable: false,
        documentdb: { engineVersion: ' 8.0.2 ', hosts: ['localhost:27018', 3, ''], findEngineVersion: 'no' },
        rules: { 'retry-safety/require-retry-backoff': 'info', 'no-swallowed-db-error': 'loud', 'pg-require-pool-error-listener': 'off' },
        trace: { server: 'verbose' },
      }),
    ).toEqual({
      enable: false,
      documentdb: { engineVersion: '8.0.2', hosts: ['localhost:27018'], findEngineVersion: true },
      rules: { 'require-retry-backoff': 'info', 'pg-require-pool-error-listener': 'off' },
      useProjectConfig: true,
      trace: { server: 'verbose' },
    });
    expect(readSettings({ useProjectConfig: false }).useProjectConfig).toBe(false);
    expect(readSettings({ useProjectConfig: 'no' }).useProjectConfig).toBe(true);
    expect(readSettings({ 'documentdb.engineVersion': '5.0.0', 'documentdb.hosts': ['tunnel'], 'documentdb.findEngineVersion': false, 'trace.server': 'messages' })).toEqual({
      ...defaultSettings,
      documentdb: { engineVersion: '5.0.0', hosts: ['tunnel'], findEngineVersion: false },
      trace: { server: 'messages' },
    });
    for (const junk of [null, undefined, 42, 'x', [], { enable: 'yes', documentdb: 'x', rules: [] }]) {
      expect(readSettings(junk)).toEqual(defaultSettings);
    }
  });

  it('accepts initializationOptions with or without the retrySafety section', () => {
    expect(readInitializationSettings({ retrySafety: { enable: false } }).enable).toBe(false);
    expect(readInitializationSettings({ enable: false, debounceMs: 0 }).enable).toBe(false);
  });

  it('becomes the ESLint shared settings the rules read', () => {
    expect(toEslintSettings(readSettings({ documentdb: { engineVersion: '8.0.2', hosts: ['db.internal'] } }))).toEqual({
      'retry-safety': { documentdb: { engineVersion: '8.0.2', hosts: ['db.internal'], findEngineVersion: true } },
      'retry-safety/settings-name': 'retrySafety',
    });
    expect(toEslintSettings(readSettings({ documentdb: { findEngineVersion: false } }))).toMatchObject({ 'retry-safety': { documentdb: { findEngineVersion: false } } });
    expect(SETTING_KEYS).toContain('documentdb.engineVersion');
    expect(SETTING_KEYS).toContain('documentdb.findEngineVersion');
  });
});

describe('maskSecrets', () => {
  it('masks the password of any URI, also with an unencoded @ in it', () => {
    expect(maskSecrets('failed: mongodb://app:s3cret@h:27017/db')).toBe('failed: mongodb://app:****@h:27017/db');
    expect(maskSecrets("'mongodb+srv://u:p@ss@cluster0.mongodb.net/?x=1'")).toBe("'mongodb+srv://u:****@cluster0.mongodb.net/?x=1'");
    expect(maskSecrets('redis://:token@cache and postgres://me:pw@db/x')).toBe('redis://:****@db/x');
    expect(maskSecrets('mongodb://host:27017/db')).toBe('mongodb://host:27017/db');
  });

  it('reads the workspace folders of an initialize request, file URIs only', () => {
    expect(readWorkspaceFolders({ workspaceFolders: [{ uri: 'file:///a/b', name: 'b' }, { uri: 'untitled:x' }, 3, { uri: 'file:///c%20d' }] })).toEqual(['/a/b', '/c d']);
    expect(readWorkspaceFolders({ workspaceFolders: null, rootUri: 'file:///root' })).toEqual(['/root']);
    expect(readWorkspaceFolders({ rootUri: null, rootPath: '/legacy' })).toEqual(['/legacy']);
    expect(readWorkspaceFolders({ workspaceFolders: [{ uri: 'file://host:bad/%E0%A4%A' }] })).toEqual([]);
    expect(readWorkspaceFolders(undefined)).toEqual([]);
  });
});
