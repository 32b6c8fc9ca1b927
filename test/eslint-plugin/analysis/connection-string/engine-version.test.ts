import { describe, expect, it } from 'vitest';
import { compareEngineVersions, getEngineVersion, isRetryableWritesEngine } from '../../../../eslint-plugin/src/analysis/connection-string/engine-version';

describe('engine versions', () => {
  it('parses engine versions', () => {
    expect(getEngineVersion('8.0.2')).toMatchObject({ major: 8, minor: 0, patch: 2 });
    expect(getEngineVersion(' 5.0.0 ')).toMatchObject({ major: 5, minor: 0, patch: 0, text: '5.0.0' });
    expect(getEngineVersion('8.0')).toMatchObject({ major: 8, minor: 0, patch: 0 });
    for (const invalid of ['latest', '8', 'v8.0.2', '8.0.2-beta', '', 8.02, null, {}]) {
      expect(getEngineVersion(invalid)).toBeUndefined();
    }
  });

  it('compares against 8.0.2', () => {
    expect(isRetryableWritesEngine(getEngineVersion('8.0.2')!)).toBe(true);
    expect(isRetryableWritesEngine(getEngineVersion('8.1')!)).toBe(true);
    expect(isRetryableWritesEngine(getEngineVersion('10.0.0')!)).toBe(true);
    expect(isRetryableWritesEngine(getEngineVersion('8.0.1')!)).toBe(false);
    expect(isRetryableWritesEngine(getEngineVersion('8.0')!)).toBe(false);
    expect(isRetryableWritesEngine(getEngineVersion('5.0.0')!)).toBe(false);
    expect(compareEngineVersions(getEngineVersion('4.0.0')!, getEngineVersion('3.6.0')!)).toBeGreaterThan(0);
  });
});
