import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findImporters } from '../../../../eslint-plugin/src/analysis/modules/module-importers';

describe('findImporters', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'module-importers-'));
    writeFileSync(path.join(root, 'package.json'), '{ "name": "app" }');
    vi.useFakeTimers({ toFake: ['Date'] });
  });

  afterEach(() => {
    vi.useRealTimers();
    rmSync(root, { recursive: true, force: true });
  });

  const write = (relative: string, text: string): string => {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };

  it('lists the project’s files that import a module, in subfolders too, without node_modules or declaration files', () => {
    const db = write('src/db.ts', 'export const pool = 1;');
    const orders = write('src/orders.ts', "import { pool } from './db';");
    const job = write('src/jobs/nightly.js', "const { pool } = require('../db');");
    write('src/types.d.ts', "import { pool } from './db';");
    write('node_modules/lib/index.js', "require('../../src/db');");
    expect([...findImporters(db)].sort()).toEqual([job, orders].sort());
  });

  it('sees a new importer once the folder is looked at again: after 5 s in a folder just written, after 30 s in one unchanged for minutes', () => {
    const db = write('src/db.ts', 'export const pool = 1;');
    const orders = write('src/orders.ts', "import { pool } from './db';");
    const old = write('lib/old.ts', "import { pool } from '../src/db';");
    const tenMinutesAgo = new Date(Date.now() - 600_000);
    utimesSync(path.join(root, 'lib'), tenMinutesAgo, tenMinutesAgo);
    const start = Date.now();
    expect([...findImporters(db)].sort()).toEqual([old, orders].sort());
    const fresh = write('src/users.ts', "import { pool } from './db';");
    const late = write('lib/late.ts', "import { pool } from '../src/db';");
    vi.setSystemTime(start + 11_000);
    expect([...findImporters(db)].sort()).toEqual([old, orders, fresh].sort());
    vi.setSystemTime(start + 31_000);
    expect([...findImporters(db)].sort()).toEqual([late, old, orders, fresh].sort());
  });
});
