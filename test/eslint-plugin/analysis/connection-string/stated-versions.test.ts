import { describe, expect, it } from 'vitest';
import { getEngineVersion } from '../../../../eslint-plugin/src/analysis/connection-string/engine-version';
import { chooseEngineVersion, describePlaces } from '../../../../eslint-plugin/src/analysis/connection-string/stated-versions';

const at = (version: string, file: string, line = 1) => ({ version, file, line });

describe('chooseEngineVersion', () => {
  it('lets the setting win without searching, and searches nothing when turned off', () => {
    const search = () => {
      throw new Error('searched');
    };
    expect(chooseEngineVersion(getEngineVersion('5.0.0'), false, search)).toMatchObject({ version: { text: '5.0.0' }, versionSource: '', autofix: true });
    expect(chooseEngineVersion(undefined, false, search)).toMatchObject({ version: undefined, conflicting: undefined });
  });

  it('uses one stated version (the same version written twice counts once), and ignores what is no version', () => {
    const chosen = chooseEngineVersion(undefined, true, () => [at('latest', 'a.tf'), at('8.0', 'a.tf', 3), at('8.0.0', 'b.yaml', 9)]);
    expect(chosen).toMatchObject({ version: { major: 8, minor: 0, patch: 0, text: '8.0' }, versionSource: ' (from a.tf:3 and b.yaml:9)', autofix: true });
  });

  it('for several versions on one side of 8.0.2: the lowest, named with the others, without an autofix', () => {
    const chosen = chooseEngineVersion(undefined, true, () => [at('5.0.0', 'b.tf'), at('4.0.0', 'a.tf')]);
    expect(chosen).toMatchObject({ version: { major: 4, text: '4.0.0 or 5.0.0' }, versionSource: ' (from a.tf:1 and b.tf:1)', autofix: false, conflicting: undefined });
  });

  it('for versions on both sides: unknown, with every version and place named', () => {
    const chosen = chooseEngineVersion(undefined, true, () => [at('8.0.2', 'new.tf', 2), at('5.0.0', 'old.tf', 7), at('5.0.0', 'old2.tf', 7)]);
    expect(chosen).toMatchObject({ version: undefined, conflicting: '5.0.0 in old.tf:7 and old2.tf:7, 8.0.2 in new.tf:2' });
  });
});

describe('describePlaces', () => {
  it('names up to three places, then counts the others', () => {
    expect(describePlaces(['a:1'])).toBe('a:1');
    expect(describePlaces(['a:1', 'b:2', 'c:3'])).toBe('a:1, b:2 and c:3');
    expect(describePlaces(['a:1', 'b:2', 'c:3', 'd:4', 'e:5'])).toBe('a:1, b:2, c:3 and 2 other places');
  });
});
