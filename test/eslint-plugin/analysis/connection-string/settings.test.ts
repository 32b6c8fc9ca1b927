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
      ['documentdb.engineVersion', '8'],
      ['documentdb.hosts', '"localhost"'],
    ]);
    expect(getRetrySafetySettings({ 'retry-safety': 'yes' }).problems).toHaveLength(1);
  });
});
