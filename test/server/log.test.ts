import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { maskSecrets as pluginMaskSecrets } from 'eslint-plugin-retry-safety/mask';
import { describe, expect, it } from 'vitest';
import { createLogger, describeError, maskSecrets } from '../../server/src/log';

const repo = path.join(import.meta.dirname, '..', '..');
const DOCDB = 'prod.cluster-abc.us-east-1.docdb.amazonaws.com:27017';

/** A logger whose every line lands in `lines`, verbose or not. */
function collect(verbose = true) {
  const lines: string[] = [];
  const sink = { error: (line: string) => lines.push(line), warn: (line: string) => lines.push(line), info: (line: string) => lines.push(line), log: (line: string) => lines.push(line) };
  return { lines, logger: createLogger(sink, () => verbose) };
}

describe('the server log', () => {
  it("masks with the plugin's own function, the one its messages use", () => {
    expect(maskSecrets).toBe(pluginMaskSecrets);
  });

  it.each([
    ['a slash', 'pa/ss'],
    ['a space', 'pa ss'],
    ['a double quote', 'pa"ss'],
    ['a single quote', "pa'ss"],
    ['digits and a space', '1234 5678'],
    ['an @', 'p@ss'],
  ])('never shows a password with %s, at any level', (_what, password) => {
    const { lines, logger } = collect();
    const uri = `mongodb://app:${password}@${DOCDB}/?tls=true`;
    logger.error(`Linting .env failed: MongoParseError for ${uri}`);
    logger.warn(`"${uri}"`);
    logger.info(`settings: ${JSON.stringify({ documentdb: { engineVersion: uri } })}`);
    logger.debug(describeError(new Error(`connect ${uri} timed out`)));
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line).not.toContain(password);
      expect(line).toContain(`mongodb://app:****@${DOCDB}`);
    }
  });

  it.each([
    ['U+2028', 'Pw\u2028K861Ocu4', ['K861Ocu4']],
    ['U+2029', 'K861\u2029Ocu4', ['K861', 'Ocu4']],
    ['a scheme', 'Mongo7xmongodb://Nest3dPw', ['Mongo7x', 'Nest3dPw']],
    ['a space and a scheme', '12587 mongodb://Q0yaJl8r', ['12587', 'Q0yaJl8r']],
  ])('never shows a password holding %s', (_what, password, secrets) => {
    const { lines, logger } = collect();
    for (const scheme of ['mongodb://', 'redis://']) {
      logger.error(`Rule retry-safety/mongo-retry-writes-connection-string threw on ${scheme}orders_app:${password}@cluster0.c1a2b3c4d5e6.mongodb.net/orders; its findings are left out`);
      logger.info(`connecting to ${scheme}app:${password}@h.example.com:6379`);
    }
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      for (const secret of secrets) expect(line).not.toContain(secret);
    }
    expect(lines[1]).toBe('connecting to mongodb://app:****@h.example.com:6379');
  });

  it('masks a 100 KB URI in a log line', () => {
    const { lines, logger } = collect();
    const options = 'appName=api&'.repeat((100 * 1024) / 12);
    logger.error(`failed: mongodb://app:s3cret@${DOCDB}/?${options}password=abc end`);
    expect(lines[0]).toBe(`failed: mongodb://app:****@${DOCDB}/?${options}password=**** end`);
  });

  it('writes verbose lines only when asked to', () => {
    const { lines, logger } = collect(false);
    logger.debug('mongodb://app:pw@h/');
    expect(lines).toEqual([]);
  });

  it('loads the masking without ESLint: the /mask entry of the plugin imports nothing', () => {
    const script = [
      "const { maskSecrets } = require('eslint-plugin-retry-safety/mask');",
      "const line = maskSecrets('mongodb://app:pa ss@h/');",
      'const loaded = Object.keys(require.cache).filter((file) => file.includes("node_modules") && !file.includes("eslint-plugin-retry-safety"));',
      'console.log(JSON.stringify([line, loaded]));',
    ].join('\n');
    const output = execFileSync(process.execPath, ['-e', script], { cwd: repo, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual(['mongodb://app:****@h/', []]);
  });
});
