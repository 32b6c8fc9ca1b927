import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blankInlineSourceMap, parseModule } from '../../../../eslint-plugin/src/analysis/modules/module-source';
import { getDbValue } from '../../../../eslint-plugin/src/analysis/clients/db-values';
import { analyse } from '../../harness';

const MAP = '//# sourceMappingURL=data:application/json;charset=utf-8;base64,eyJ2ZXJzaW9uIjozfQ==';

describe('blankInlineSourceMap', () => {
  it('turns a trailing inline source map into spaces, keeping every offset', () => {
    const code = `const a = 1;\n${MAP}\n`;
    const blanked = blankInlineSourceMap(code);
    expect(blanked).toHaveLength(code.length);
    expect(blanked.startsWith('const a = 1;\n')).toBe(true);
    expect(blanked.trim()).toBe('const a = 1;');
  });

  it('leaves a file alone when the map is not the last thing in it, or is a link to a file', () => {
    const mapThenCode = `${MAP}\nconst a = 1;\n`;
    expect(blankInlineSourceMap(mapThenCode)).toBe(mapThenCode);
    const linked = 'const a = 1;\n//# sourceMappingURL=index.js.map\n';
    expect(blankInlineSourceMap(linked)).toBe(linked);
    expect(blankInlineSourceMap('')).toBe('');
  });
});

describe('parseModule', () => {
  it('parses a module with an inline source map; its SourceCode keeps the text as read', () => {
    const text = `const { Pool } = require('pg');\nmodule.exports = new Pool();\n${MAP}\n`;
    const parsed = analyse('', (context) => {
      const module = parseModule(context, path.resolve('db.js'), text);
      const statement = module?.sourceCode.ast.body[1];
      return { text: module?.sourceCode.text, statement: statement && text.slice(statement.range[0], statement.range[1]) };
    });
    expect(parsed.text).toBe(text);
    expect(parsed.statement).toBe('module.exports = new Pool();');
  });

  it('reads what a compiled module with an inline source map exports', () => {
    const modules = { 'db.js': `import { Pool } from 'pg';\nexport const pool = new Pool();\n${MAP}\n` };
    const value = analyse(`import { pool } from './db.js';\nawait pool.query('SELECT 1');`, (context) => {
      const call = context.sourceCode.ast.body[1];
      const receiver = call?.type === 'ExpressionStatement' && call.expression.type === 'AwaitExpression' && call.expression.argument.type === 'CallExpression' && call.expression.argument.callee.type === 'MemberExpression' ? call.expression.argument.callee.object : undefined;
      return receiver && getDbValue(context, receiver);
    }, { modules });
    expect(value).toEqual({ database: 'postgres', role: 'pool', library: 'pg' });
  });
});
