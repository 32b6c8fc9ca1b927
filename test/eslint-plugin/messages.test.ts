// The example project linted as its CI would (the built plugin, its own eslint.config.js),
// with the DocumentDB engine version it states and with the other ones a project may state:
// every message of every rule is short, names no password and quotes no connection string.
// (Each rule test also checks the messages of its invalid cases: see rule-tester.ts.)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULE_PREFIX } from '../../eslint-plugin/src/constants';
import plugin from '../../eslint-plugin/src/index';
import { MAX_MESSAGE_LENGTH, findMessageProblems, findPasswords } from './messages';

const examplesDir = path.join(import.meta.dirname, '..', '..', 'examples');

/**
 * The engine versions linted: the example's own (8.0.2), an older one, and one the rule cannot
 * read (null), which makes it report the setting and treat the version as unknown.
 */
const ENGINE_VERSIONS = ['8.0.2', '5.0.0', null] as const;

describe('messages on the example project', () => {
  let results: { version: string | null; results: ESLint.LintResult[] }[];

  beforeAll(async () => {
    results = [];
    for (const version of ENGINE_VERSIONS) {
      const eslint = new ESLint({
        cwd: examplesDir,
        overrideConfig: { settings: { 'retry-safety': { documentdb: { engineVersion: version } } } },
      });
      results.push({ version, results: await eslint.lintFiles(['.']) });
    }
  }, 120_000);

  it('has a finding of every rule, so every rule’s messages are checked', () => {
    const reported = new Set(results.flatMap(({ results: each }) => each.flatMap((result) => result.messages.map((message) => message.ruleId))));
    expect([...Object.keys(plugin.rules)].filter((id) => !reported.has(RULE_PREFIX + id))).toEqual([]);
    // The example's passwords are there to be hidden.
    expect(findPasswords(readFileSync(path.join(examplesDir, '.env'), 'utf8'))).toContain('change-me');
  });

  it(`keeps every message and suggestion within ${MAX_MESSAGE_LENGTH} characters and free of passwords`, () => {
    const problems = results.flatMap(({ version, results: each }) =>
      each.flatMap((result) =>
        findMessageProblems(result.messages, readFileSync(result.filePath, 'utf8'), `engine ${String(version)}: ${path.relative(examplesDir, result.filePath)}:`),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('names a connection by its host, never by its URI', () => {
    const messages = results.flatMap(({ results: each }) => each.flatMap((result) => result.messages));
    const connectionMessages = messages.filter((message) => message.ruleId === `${RULE_PREFIX}mongo-retry-writes-connection-string`);
    expect(connectionMessages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message.message).not.toMatch(/mongodb(?:\+srv)?:\/\//);
    expect(new Set(connectionMessages.map((message) => message.messageId))).toEqual(
      new Set(['removeRetryWritesFalse', 'retryWritesFalseUnknownVersion', 'invalidSetting']),
    );
    expect(connectionMessages.map((message) => message.message)).toContain(
      'retryWrites=false in the URI for orders.cluster-c1a2b3c4d5e6.eu-west-1.docdb.amazonaws.com turns off retryable writes, but DocumentDB 8.0.2 supports them. Remove it.',
    );
  });
});
