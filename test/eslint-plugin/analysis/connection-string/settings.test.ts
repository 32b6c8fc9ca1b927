import { describe, expect, it } from 'vitest';
import { getRetrySafetySettings } from '../../../../eslint-plugin/src/analysis/connection-string/settings';

describe('settings', () => {
  it('reads settings["retry-safety"] and reports invalid values instead of throwing', () => {
    expect(getRetrySafetySettings(undefined)).toMatchObject({ documentdb: { engineVersion: undefined, hosts: [] }, problems: [] });
    const ok = getRetrySafetySettings({ 'retry-safety': { documentdb: { engineVersion: '8.0.2', hosts: ['localhost:27018'] } } });
    expect(ok.documentdb.engineVersion?.text).toBe('8.0.2');
    expect(ok.documentdb.hosts).toEqual(['localhost:27018']);
    const invalid = getRetrySafetySettings({ 'retry-safety': { documentdb: { engineVersion: 8, hosts: 'localhost' } } });
    expect(invalid.documentdb.engineVersion).toBeUndefined();
    expect(invalid.problems.map((problem) => [problem.setting, problem.value])).toEqual([
      ['documentdb.engineVersion', 'a number'],
      ['documentdb.hosts', 'a string of 9 characters'],
    ]);
    expect(getRetrySafetySettings({ 'retry-safety': 'yes' }).problems).toHaveLength(1);
  });
});

describe('a connection string given as a setting value', () => {
  const problemsOf = (documentdb: Record<string, unknown>) => getRetrySafetySettings({ 'retry-safety': { documentdb } }).problems;

  it('is described by its kind and size, never shown, whatever the password holds', () => {
    for (const password of ['hunter2', 'pa/ss', 'pa ss', 'pa"ss', '1234 5678', 'Pa{{ss']) {
      const uri = `mongodb://admin:${password}@prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017/?tls=true`;
      const [problem] = problemsOf({ engineVersion: uri });
      expect(problem).toMatchObject({ setting: 'documentdb.engineVersion', value: `a string of ${uri.length} characters` });
      const [bare] = problemsOf({ engineVersion: `admin:${password}@db.example.com` });
      expect(bare!.value).not.toContain(password);
      expect(bare!.value).not.toContain('admin');
    }
  });

  it('describes arrays, objects and other values without printing what they hold', () => {
    const uri = 'mongodb://admin:hunter2@db.example.com/';
    const described = [
      problemsOf({ engineVersion: [uri, 1] }),
      problemsOf({ engineVersion: { [uri]: 1 } }),
      problemsOf({ engineVersion: [uri, 10n] }),
      problemsOf({ hosts: [uri, 3] }),
      problemsOf({ engineVersion: 8 }),
      problemsOf({ engineVersion: true }),
      problemsOf({ engineVersion: '8' }),
      problemsOf({ engineVersion: '  ' }),
      problemsOf({ engineVersion: null }),
    ].map(([problem]) => problem!.value);
    expect(described).toEqual([
      'an array of 2 items',
      'an object with 1 key',
      'an array of 2 items',
      'an array of 2 items',
      'a number',
      'a boolean',
      'a string of 1 character',
      'an empty string',
      'null',
    ]);
  });

  it('describes a long value in a few words', () => {
    const [problem] = problemsOf({ engineVersion: `${'a'.repeat(256 * 1024)} ${':'.repeat(256 * 1024)}` });
    expect(problem!.value).toBe('a string of 524,289 characters');
  });
});
