import { describe, expect, it } from 'vitest';
import plugin from '../../eslint-plugin/src/index';

describe('plugin object', () => {
  it('exports every rule under the retry-safety namespace', () => {
    expect(Object.keys(plugin.rules).length).toBeGreaterThan(0);
    expect(plugin.meta.namespace).toBe('retry-safety');
  });
});
