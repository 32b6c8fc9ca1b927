import { describe, expect, it } from 'vitest';
import { classifySql, getSqlStatement, getSqlText } from '../../../../eslint-plugin/src/analysis/clients/sql-statements';
import { analyse } from '../../harness';

describe('classifySql', () => {
  it.each([
    ['BEGIN', 'begin'],
    ['begin transaction isolation level serializable', 'begin'],
    ['START TRANSACTION', 'begin'],
    ['COMMIT', 'commit'],
    ['end', 'commit'],
    ['ROLLBACK', 'rollback'],
    ['abort', 'rollback'],
    ['ROLLBACK TO SAVEPOINT a', 'savepoint'],
    ['SAVEPOINT a', 'savepoint'],
    ['RELEASE SAVEPOINT a', 'savepoint'],
    ['SELECT * FROM orders WHERE id = $1', 'read'],
    ['  (select 1)', 'read'],
    ['WITH recent AS (SELECT * FROM o) SELECT * FROM recent', 'read'],
    ['WITH moved AS (DELETE FROM a RETURNING *) INSERT INTO b SELECT * FROM moved', 'write'],
    ['INSERT INTO orders (id) VALUES ($1)', 'write'],
    ['update orders set paid = true', 'write'],
    ['DELETE FROM orders', 'write'],
    ['MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DO NOTHING', 'write'],
    ['CREATE TABLE t (id int)', 'write'],
    ['TRUNCATE t', 'write'],
    ['COPY t FROM STDIN', 'write'],
    ['COPY t TO STDOUT', 'read'],
    ['SET search_path TO app', 'other'],
    ['LISTEN jobs', 'other'],
    ['CALL do_things()', 'unknown'],
    ['DO $$ BEGIN INSERT INTO t VALUES (1); END $$', 'unknown'],
    ['', 'unknown'],
    [' $0 WHERE id = 1', 'unknown'],
  ])('%j is %s', (text, kind) => {
    expect(classifySql(text).kind).toBe(kind);
  });

  it('skips comments and quoted text before and inside statements', () => {
    expect(classifySql('-- save the order\n/* v2 */ INSERT INTO t VALUES (1)').kind).toBe('write');
    expect(classifySql("SELECT 'insert into x; delete' AS s").kinds).toEqual(['read']);
    expect(classifySql('SELECT $body$ ; DELETE FROM t $body$').kinds).toEqual(['read']);
    expect(classifySql("SELECT 'it''s; delete', \"odd\"\"name; drop\" FROM t; DELETE FROM t").kinds).toEqual(['read', 'write']);
    expect(classifySql('SELECT $1, $2; DELETE FROM t WHERE id = $3').kinds).toEqual(['read', 'write']);
    expect(classifySql('SELECT 1 /* unclosed; DELETE FROM t').kinds).toEqual(['read']);
    expect(classifySql("SELECT 'unclosed; DELETE FROM t").kinds).toEqual(['read']);
  });

  it('classifies every statement of a multi-statement text', () => {
    const statement = classifySql('BEGIN; INSERT INTO a VALUES (1); COMMIT;');
    expect(statement).toEqual({ kind: 'begin', kinds: ['begin', 'write', 'commit'], keyword: 'BEGIN', isWrite: true, hasOnConflict: false });
  });

  it('sees ON CONFLICT outside strings only', () => {
    expect(classifySql('INSERT INTO t (k) VALUES ($1) ON CONFLICT (k) DO NOTHING').hasOnConflict).toBe(true);
    expect(classifySql("INSERT INTO t (k) VALUES ('on conflict')").hasOnConflict).toBe(false);
  });

  it('treats unknown text as not a write', () => {
    expect(classifySql('CALL archive()').isWrite).toBe(false);
  });
});

describe('getSqlStatement', () => {
  function kinds(code: string): string[] {
    return analyse(code, (context) => {
      const result: string[] = [];
      for (const statement of context.sourceCode.ast.body) {
        if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'CallExpression') continue;
        result.push(getSqlStatement(context, statement.expression.arguments[0]).kind);
      }
      return result;
    });
  }

  it('reads strings, templates, { text } objects, tagged templates and consts', () => {
    const code = `
      const INSERT_ORDER = 'INSERT INTO orders VALUES ($1)';
      let changing = 'SELECT 1';
      q('BEGIN');
      q(\`UPDATE \${table} SET a = 1\`);
      q({ text: 'SELECT * FROM t', values: [] });
      q(INSERT_ORDER);
      q(changing);
      q(sql\`delete from t\`);
      q(\`\${dynamic}\`);
      q(42);
      q();`;
    expect(kinds(code)).toEqual(['begin', 'write', 'read', 'write', 'unknown', 'write', 'unknown', 'unknown', 'unknown']);
  });
});

describe('getSqlText', () => {
  /** The SQL text of the first argument of each `pool.query(…)` statement; `context` off reads literals only. */
  function texts(code: string, withContext = true): (string | undefined)[] {
    return analyse(code, (context) =>
      context.sourceCode.ast.body.flatMap((statement) => {
        const expression = statement.type === 'ExpressionStatement' ? statement.expression : undefined;
        const call = expression?.type === 'AwaitExpression' ? expression.argument : expression;
        if (call?.type !== 'CallExpression' || !call.arguments[0]) return [];
        return [getSqlText(withContext ? context : undefined, call.arguments[0])];
      }),
    );
  }

  const code = `
    import { Pool } from 'pg';
    const pool = new Pool();
    const INSERT_ORDER = 'INSERT INTO orders (id) VALUES ($1)';
    const QUERY = { text: INSERT_ORDER, values: [1] };
    let changing = 'SELECT 1';
    await pool.query('SELECT * FROM orders');
    await pool.query(\`UPDATE \${table} SET paid = true WHERE id = $1\`);
    await pool.query({ text: 'DELETE FROM orders WHERE id = $1', values: [1] });
    await pool.query(INSERT_ORDER);
    await pool.query(QUERY);
    await pool.query(sql\`select 1\` as string);
    await pool.query(changing);
    await pool.query(buildQuery());
    await pool.query(42);`;

  it('reads strings, templates (holes become $0), { text } objects, tagged templates and consts', () => {
    expect(texts(code)).toEqual([
      'SELECT * FROM orders',
      'UPDATE  $0  SET paid = true WHERE id = $1',
      'DELETE FROM orders WHERE id = $1',
      'INSERT INTO orders (id) VALUES ($1)',
      'INSERT INTO orders (id) VALUES ($1)',
      'select 1',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('without a rule context, reads the literals but does not follow variables', () => {
    expect(texts(code, false)).toEqual([
      'SELECT * FROM orders',
      'UPDATE  $0  SET paid = true WHERE id = $1',
      'DELETE FROM orders WHERE id = $1',
      undefined,
      undefined,
      'select 1',
      undefined,
      undefined,
      undefined,
    ]);
  });
});
