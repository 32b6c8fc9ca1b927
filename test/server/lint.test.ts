// DocumentLinter with a stand-in plugin whose rules throw: one failing rule must not
// cost the findings of the others, and the failure is logged once, masked.
import type { Rule } from 'eslint';
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../server/src/plugin', () => {
  const report = (name: string): Rule.RuleModule => ({
    meta: { type: 'problem', docs: { description: name, url: `https://example.test/${name}` }, schema: [] },
    create: (context) => ({ Program: (node) => context.report({ node, message: `${name} found something` }) }),
  });
  const plugin = {
    meta: { name: 'stand-in', version: '0.0.0' },
    rules: {
      first: report('first'),
      'throws-in-listener': {
        meta: { type: 'problem', schema: [] },
        create: () => ({
          Literal: () => {
            throw new Error('listener failed near mongodb://app:hunter2@db.example.com/orders');
          },
        }),
      } satisfies Rule.RuleModule,
      'throws-in-create': {
        meta: { type: 'problem', schema: [] },
        create: () => {
          throw new Error('create failed');
        },
      } satisfies Rule.RuleModule,
      last: report('last'),
    },
  };
  return {
    plugin,
    getPresetRules: () => Object.fromEntries(Object.keys(plugin.rules).map((id) => [`retry-safety/${id}`, 'warn'])),
    getTestFileRules: () => ({}),
  };
});

const { DocumentLinter, getLintTarget } = await import('../../server/src/lint');
const { createLogger } = await import('../../server/src/log');
const { defaultSettings } = await import('../../server/src/settings');

function createLinter() {
  const lines: string[] = [];
  const sink = { error: (line: string) => lines.push(line), warn: () => undefined, info: () => undefined, log: () => undefined };
  return { linter: new DocumentLinter(createLogger(sink, () => false)), lines };
}

describe('DocumentLinter', () => {
  it('keeps the findings of the other rules when rules throw, and logs each failure once, masked', () => {
    const { linter, lines } = createLinter();
    const target = getLintTarget('file:///project/src/db.ts', 'typescript');
    for (let run = 0; run < 2; run++) {
      const outcome = linter.lint("const uri = 'mongodb://x';\n", target, defaultSettings);
      expect(outcome.status).toBe('linted');
      if (outcome.status !== 'linted') return;
      expect(outcome.messages.map((message) => message.ruleId)).toEqual(['retry-safety/first', 'retry-safety/last']);
    }
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).toContain('retry-safety/throws-in-listener');
    expect(lines.join('\n')).toContain('retry-safety/throws-in-create');
    expect(lines.join('\n')).not.toContain('hunter2');
  });

  it('reports a parse error as such, and skips huge and binary text', () => {
    const { linter } = createLinter();
    const target = getLintTarget('file:///project/src/db.ts', 'typescript');
    expect(linter.lint('const = ;', target, defaultSettings).status).toBe('parse-error');
    expect(linter.lint('x'.repeat(3 * 1024 * 1024), target, defaultSettings)).toEqual({
      status: 'skipped',
      reason: 'larger than 2097152 characters',
    });
    expect(linter.lint('const a = 1;\0', target, defaultSettings)).toEqual({ status: 'skipped', reason: 'binary content' });
    expect(linter.fix('const = ;', target, defaultSettings)).toBeUndefined();
  });

  it('lints code by extension first, then by language id; everything else as text', () => {
    expect(getLintTarget('file:///a/b/service.mts', 'plaintext')).toEqual({ kind: 'code', filename: 'service.mts', sourcePath: '/a/b/service.mts' });
    expect(getLintTarget('untitled:Untitled-1', 'typescriptreact')).toEqual({ kind: 'code', filename: 'Untitled-1.tsx' });
    expect(getLintTarget('file:///a/.env.local', 'dotenv')).toEqual({ kind: 'text', filename: '.env.local' });
    expect(getLintTarget('file:///a/my%20config.yaml', 'yaml')).toEqual({ kind: 'text', filename: 'my config.yaml' });
    expect(getLintTarget('file:///a/%E0%A4%A', 'plaintext')).toEqual({ kind: 'text', filename: '%E0%A4%A' });
    expect(getLintTarget('::::', 'typescript')).toEqual({ kind: 'code', filename: '____.ts' });
    expect(getLintTarget('file:///', 'plaintext')).toEqual({ kind: 'text', filename: 'untitled' });
  });

  it('marks test files by their path inside the innermost workspace folder, else by the whole path', () => {
    const folders = ['/work/test', '/work/test/shop'];
    expect(getLintTarget('file:///work/test/shop/src/db.ts', 'typescript', folders)).not.toHaveProperty('testFile');
    expect(getLintTarget('file:///work/test/shop/src/db.spec.ts', 'typescript', folders)).toMatchObject({ testFile: true });
    expect(getLintTarget('file:///work/test/shop/fixtures/seed.js', 'javascript', folders)).toMatchObject({ testFile: true });
    expect(getLintTarget('file:///other/tests/db.ts', 'typescript', folders)).toMatchObject({ testFile: true });
    expect(getLintTarget('untitled:orders.test', 'typescript', folders)).toMatchObject({ filename: 'orders.test.ts', testFile: true });
    // Text files are never test files: the connection-string preset has no test-file levels.
    expect(getLintTarget('file:///work/test/shop/test/.env', 'dotenv', folders)).toEqual({ kind: 'text', filename: '.env' });
  });

  it("gives code files on disk their real path, for the plugin's module index", () => {
    expect(getLintTarget('file:///a/b/my%20db.ts', 'typescript')).toMatchObject({ kind: 'code', sourcePath: '/a/b/my db.ts' });
    expect(getLintTarget('untitled:Untitled-2', 'javascript')).not.toHaveProperty('sourcePath');
    expect(getLintTarget('vscode-notebook-cell:/a/b.ipynb#x', 'typescript')).not.toHaveProperty('sourcePath');
  });
});
