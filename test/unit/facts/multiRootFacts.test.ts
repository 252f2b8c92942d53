/**
 * Facts in a workspace of several folders: a citation names its folder, so lines of the second
 * folder are checked there — not against a file of the same name in the first one. Real folders,
 * real files, the Node workspace ports.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { citationLabel } from '../../../src/protocol';
import { FactBook } from '../../../src/core/facts/factBook';
import { FactStore } from '../../../src/core/facts/factStore';
import { DEFAULT_FACT_SETTINGS } from '../../../src/core/facts/factSettings';
import { factSection } from '../../../src/core/facts/factSection';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';

describe('facts in a multi-root workspace', () => {
  let tmp: string;
  let web: string;
  let api: string;
  let book: FactBook;
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-multiroot-')));
    web = path.join(tmp, 'web');
    api = path.join(tmp, 'api');
    for (const [root, first] of [[web, 'import express from "express"'], [api, 'from flask import Flask']] as const) {
      fs.mkdirSync(path.join(root, 'src'), { recursive: true });
      fs.writeFileSync(path.join(root, 'src', 'app.py'), `${first}\n\napp = make()\n`);
    }
    book = new FactBook({ store: new FactStore(path.join(tmp, 'data', 'facts.json')), fs: new NodeWorkspaceFs([web, api]), workspace: 'web-123', settings: () => DEFAULT_FACT_SETTINGS });
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("a citation of the second folder's lines names that folder, holds there, and goes stale when they change", async () => {
    const r = await book.add('The API is a Flask app', { lines: [{ path: 'api/src/app.py', start: 1, end: 1 }] });
    assert.ok(r.ok, !r.ok ? r.why : '');
    assert.equal(r.cited, 'api/src/app.py:1');
    assert.deepEqual(r.fact.citation?.kind === 'lines' && r.fact.citation.files.map((f) => [f.folder, f.path]), [['api', 'src/app.py']]);
    // Fresh: web/src/app.py (same name, other lines) is not what it rests on.
    const [view] = await book.list();
    assert.equal(view!.stale, undefined, JSON.stringify(view!.stale));
    assert.equal(view!.cited, 'api/src/app.py:1');
    assert.ok(factSection((await book.usable()).fresh, '', 300).text?.includes('- The API is a Flask app [api/src/app.py:1]'));
    // The first folder's file changing leaves it alone; its own changing makes it stale.
    fs.writeFileSync(path.join(web, 'src', 'app.py'), 'changed\n');
    assert.equal((await book.list())[0]!.stale, undefined);
    fs.writeFileSync(path.join(api, 'src', 'app.py'), 'from fastapi import FastAPI\n');
    assert.deepEqual((await book.list())[0]!.stale, { reason: 'changed', detail: 'api/src/app.py:1-1 changed since it was learned' });
  });

  it('an absolute path in the second folder is cited by its folder too; the first folder is named as well', async () => {
    const abs = await book.add('The API app object is made by make()', { lines: [{ path: path.join(api, 'src', 'app.py'), start: 3, end: 3 }] });
    assert.ok(abs.ok, !abs.ok ? abs.why : '');
    assert.equal(abs.cited, 'api/src/app.py:3');
    const first = await book.add('The web app uses express', { lines: [{ path: 'src/app.py', start: 1, end: 1 }] });
    assert.ok(first.ok, !first.ok ? first.why : '');
    assert.equal(first.cited, 'web/src/app.py:1');
    assert.deepEqual((await book.list()).map((v) => v.stale), [undefined, undefined]);
    // A re-check reads the lines in the fact's own folder.
    const again = await book.recheck(abs.fact.id);
    assert.ok(again.ok && again.cited === 'api/src/app.py:3', JSON.stringify(again));
    // A folder no longer open: stale, the file gone from this workspace.
    const onlyWeb = new FactBook({ store: new FactStore(path.join(tmp, 'data', 'facts.json')), fs: new NodeWorkspaceFs([web]), workspace: 'web-123', settings: () => DEFAULT_FACT_SETTINGS });
    const views = await onlyWeb.list();
    assert.match(views.find((v) => v.fact.id === abs.fact.id)!.stale!.detail, /api\/src\/app\.py: the folder api is not open/);
    assert.equal(citationLabel(views.find((v) => v.fact.id === first.fact.id)!.fact.citation), 'web/src/app.py:1');
  });
});
