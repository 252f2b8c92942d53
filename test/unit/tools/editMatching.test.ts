import * as assert from 'node:assert/strict';
import { applyEditBlocks, type EditOutcome } from '../../../src/core/tools/edit/editMatching';
import { looksLikeElisionMarker } from '../../../src/core/tools/edit/editMarkers';

const ok = (o: EditOutcome): string => {
  assert.ok(o.ok, o.ok ? '' : o.error);
  return o.text;
};
const refused = (o: EditOutcome): string => {
  assert.equal(o.ok, false, o.ok ? `expected a refusal, got:\n${o.text}` : '');
  return o.ok ? '' : o.error;
};

const PY = `import logging


class Cache:
    def __init__(self, size):
        self.size = size
        self.items = {}

    def get(self, key):
        if key in self.items:
            value = self.items[key]
            logging.debug("hit %s", key)
            return value
        return None

    def put(self, key, value):
        if len(self.items) >= self.size:
            self.items.pop(next(iter(self.items)))
        self.items[key] = value
`;

const GO = `package store

func (s *Store) Get(key string) (string, error) {
\ts.mu.Lock()
\tdefer s.mu.Unlock()
\tif v, ok := s.data[key]; ok {
\t\treturn v, nil
\t}
\treturn "", ErrNotFound
}
`;

const YAML = `name: ci
on:
  push:
    branches: [main]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Install
        run: npm ci
      - name: Test
        run: npm test
`;

const TS = `export class Queue<T> {
    private items: T[] = [];

    push(item: T): void {
        if (this.items.length > 1000) {
            throw new Error('queue full');
        }
        this.items.push(item);
    }

    pop(): T | undefined {
        return this.items.shift();
    }
}
`;

describe('edit matching: whitespace only where harmless', () => {
  it('never matches across whitespace inside a line (a string literal with two spaces is another value)', () => {
    const src = 'SEP = "a b"\nJOIN = SEP.join\n';
    const e = refused(applyEditBlocks(src, [{ old_text: 'SEP = "a  b"', new_text: 'SEP = "-"' }]));
    assert.match(e, /not found/);
  });

  it('ignores line-end whitespace the model added', () => {
    const out = ok(applyEditBlocks(PY, [{ old_text: '        return None   \n', new_text: '        return default\n' }]));
    assert.equal(out, PY.replace('        return None\n', '        return default\n'));
  });
});

describe('edit matching: indentation mapped from every matched line', () => {
  it('Python: first line copied without its indentation, new nested lines land at the file\'s levels', () => {
    // The model copied from the first line's text onwards: the first line is at column 0, the rest as in the file.
    const old_text = 'def get(self, key):\n        if key in self.items:\n            value = self.items[key]';
    const new_text =
      'def get(self, key, default=None):\n        if key in self.items:\n            value = self.items[key]\n            if value is None:\n                return default';
    const out = ok(applyEditBlocks(PY, [{ old_text, new_text }]));
    assert.ok(
      out.includes(
        '    def get(self, key, default=None):\n        if key in self.items:\n            value = self.items[key]\n            if value is None:\n                return default\n            logging.debug',
      ),
      out,
    );
  });

  it('Python: a whole block sent dedented by two levels is shifted back, deeper new lines too', () => {
    const old_text = 'if len(self.items) >= self.size:\n    self.items.pop(next(iter(self.items)))\nself.items[key] = value';
    const new_text = 'if len(self.items) >= self.size:\n    oldest = next(iter(self.items))\n    if oldest != key:\n        self.items.pop(oldest)\nself.items[key] = value';
    const out = ok(applyEditBlocks(PY, [{ old_text, new_text }]));
    assert.ok(
      out.endsWith(
        '        if len(self.items) >= self.size:\n            oldest = next(iter(self.items))\n            if oldest != key:\n                self.items.pop(oldest)\n        self.items[key] = value\n',
      ),
      out,
    );
  });

  it('Python: a dedented block of the same length whose last line moves one level deeper keeps that step at the file\'s scale', () => {
    // Same number of lines as old_text; line 3 is nested under line 2 in the new text.
    const old_text = 'if key in self.items:\n    value = self.items[key]\n    logging.debug("hit %s", key)';
    const new_text = 'if key in self.items:\n    with self.lock:\n        value = self.items[key]';
    const out = ok(applyEditBlocks(PY, [{ old_text, new_text }]));
    assert.ok(out.includes('        if key in self.items:\n            with self.lock:\n                value = self.items[key]\n            return value'), out);
  });

  it('Python: refuses when the model flattened lines of different depth to one level (nothing explains the mapping)', () => {
    const e = refused(applyEditBlocks(PY, [{ old_text: 'if key in self.items:\nvalue = self.items[key]', new_text: 'if key in self.items:\nvalue = self.items.get(key)' }]));
    assert.match(e, /indentation of old_text does not correspond/);
    assert.match(e, /Nothing was changed/);
  });

  it('TypeScript: a 4-space file edited by a model that re-indented with 2 spaces keeps 4 spaces, new levels included', () => {
    const old_text = '  push(item: T): void {\n    if (this.items.length > 1000) {\n      throw new Error(\'queue full\');\n    }';
    const new_text =
      "  push(item: T): void {\n    if (this.items.length > 1000) {\n      if (this.dropOldest) {\n        this.items.shift();\n      } else {\n        throw new Error('queue full');\n      }\n    }";
    const out = ok(applyEditBlocks(TS, [{ old_text, new_text }]));
    assert.ok(
      out.includes(
        "    push(item: T): void {\n        if (this.items.length > 1000) {\n            if (this.dropOldest) {\n                this.items.shift();\n            } else {\n                throw new Error('queue full');\n            }\n        }\n        this.items.push(item);",
      ),
      out,
    );
  });

  it('Go: a model that sent spaces for the file\'s tabs gets tabs written, at every level', () => {
    const old_text = '    if v, ok := s.data[key]; ok {\n        return v, nil\n    }';
    const new_text = '    if v, ok := s.data[key]; ok {\n        if v == "" {\n            return "", ErrEmpty\n        }\n        return v, nil\n    }';
    const out = ok(applyEditBlocks(GO, [{ old_text, new_text }]));
    assert.ok(out.includes('\tif v, ok := s.data[key]; ok {\n\t\tif v == "" {\n\t\t\treturn "", ErrEmpty\n\t\t}\n\t\treturn v, nil\n\t}\n'), out);
  });

  it('YAML: a step sent without its list indentation lands inside the steps list', () => {
    const old_text = '- name: Install\n  run: npm ci';
    const new_text = '- name: Install\n  run: npm ci\n  env:\n    CI: "true"';
    const out = ok(applyEditBlocks(YAML, [{ old_text, new_text }]));
    assert.ok(out.includes('      - name: Install\n        run: npm ci\n        env:\n          CI: "true"\n      - name: Test'), out);
  });

  it('refuses a new line whose indentation nothing explains rather than guessing', () => {
    // Two matched lines at one model level but the first alone at column 0: a new, shallower line cannot be placed.
    const old_text = 'def put(self, key, value):\n        if len(self.items) >= self.size:';
    const new_text = 'def put(self, key, value):\n  # where does this go?\n        if len(self.items) >= self.size:';
    const e = refused(applyEditBlocks(PY, [{ old_text, new_text }]));
    assert.match(e, /cannot tell how to indent the new_text line "# where does this go\?"/);
  });
});

describe('edit matching: elision markers', () => {
  const lazyNew =
    '    def get(self, key):\n        if key in self.items:\n            # ... existing code ...\n            return value\n        raise KeyError(key)';
  const fullOld = '    def get(self, key):\n        if key in self.items:\n            value = self.items[key]\n            logging.debug("hit %s", key)\n            return value\n        return None';

  it('recognises the common wordings and comment syntaxes, and not code', () => {
    for (const m of ['...', '…', '// ...', '# ...', '/* ... */', '{/* ... */}', '<!-- ... -->', '// ... existing code ...', '# ... rest unchanged ...',
      '-- ...', '# rest of the function unchanged', '// existing code here', '# ... (unchanged) ...', '// rest of the file remains unchanged']) {
      assert.ok(looksLikeElisionMarker(`    ${m}`), m);
    }
    for (const c of ['...args,', 'return ...;', 'print("...")', '# TODO: handle errors', "x = '...'", '// see the docs...for details = 1', 'pass']) {
      assert.ok(!looksLikeElisionMarker(c), c);
    }
  });

  it('new_text: a marker keeps the lines it stands for, byte for byte, and is never written', () => {
    const out = ok(applyEditBlocks(PY, [{ old_text: fullOld, new_text: lazyNew }]));
    assert.equal(out, PY.replace('            return value\n        return None', '            return value\n        raise KeyError(key)'));
    assert.doesNotMatch(out, /existing code/);
  });

  it('old_text: a marker matches the run of lines it stands for (the match still unique), and new_text may reuse it', () => {
    const old_text = '    def get(self, key):\n        # ...\n        return None';
    const new_text = '    def get(self, key):\n        # ...\n        return self.default';
    const o = applyEditBlocks(PY, [{ old_text, new_text }]);
    const out = ok(o);
    assert.equal(out, PY.replace('        return None', '        return self.default'));
    assert.ok(o.ok && o.notes.some((n) => /elision marker was matched to lines 9-14/.test(n)), o.ok ? o.notes.join('\n') : '');
  });

  it('TypeScript: /* ... */ and // ... existing code ... in a lazy method rewrite', () => {
    const old_text = '    push(item: T): void {\n        /* ... */\n        this.items.push(item);\n    }';
    const new_text = '    push(item: T): void {\n        // ... existing code ...\n        this.items.push(item);\n        this.emit(\'push\', item);\n    }';
    const out = ok(applyEditBlocks(TS, [{ old_text, new_text }]));
    assert.equal(out, TS.replace('        this.items.push(item);\n', "        this.items.push(item);\n        this.emit('push', item);\n"));
  });

  it('adversarial: Python\'s `...` body is code: an exact old_text containing it is matched literally and kept', () => {
    const src = 'class Proto:\n    def read(self) -> bytes:\n        ...\n\n    def close(self) -> None:\n        ...\n';
    const out = ok(applyEditBlocks(src, [{ old_text: '    def read(self) -> bytes:\n        ...', new_text: '    def read(self, n: int = -1) -> bytes:\n        ...' }]));
    assert.equal(out, src.replace('def read(self) -> bytes', 'def read(self, n: int = -1) -> bytes'));
  });

  it('adversarial: a marker-looking comment the file really has is code, in old_text and in new_text', () => {
    const src = 'def f():\n    a = 1\n    # ... rest unchanged ...\n    return a\n';
    const out = ok(applyEditBlocks(src, [{ old_text: '    a = 1\n    # ... rest unchanged ...', new_text: '    a = 2\n    # ... rest unchanged ...' }]));
    assert.equal(out, 'def f():\n    a = 2\n    # ... rest unchanged ...\n    return a\n');
  });

  it('adversarial: an elided old_text that matches two regions equally well is refused, saying what to send instead', () => {
    const src = 'def a():\n    x = 1\n    y = 2\n    return x\n\ndef b():\n    x = 1\n    z = 3\n    return x\n';
    const e = refused(applyEditBlocks(src, [{ old_text: '    x = 1\n    # ...\n    return x', new_text: '    x = 1\n    # ...\n    return -x' }]));
    assert.match(e, /matches more than one region \(lines 2-4 and 2-9 and 7-9\)/);
    assert.match(e, /send the edit without elision markers/);
  });

  // Go: the last line kept before a marker is a generic closing brace, as in real elided edits.
  const GO = [
    'func (c *Command) MarkRequired(names ...string) {',
    '\tfor _, v := range names {',
    '\t\tf := c.Flags().Lookup(v)',
    '\t\tif f == nil {',
    '\t\t\tpanic(v)',
    '\t\t}',
    '\t\tc.Flags().SetAnnotation(v, requiredAsGroup, nil)',
    '\t}',
    '}',
    '',
    'func (c *Command) MarkExclusive(names ...string) {',
    '\tfor _, v := range names {',
    '\t\tc.Flags().SetAnnotation(v, mutuallyExclusive, nil)',
    '\t}',
    '}',
    '',
  ].join('\n');

  it('Go: an elided old_text and new_text whose readings differ only in which closing brace ends them give one file, and land', () => {
    // "}" ends the region at line 9 or at line 15; new_text keeps the run either way, so both readings write the same file.
    const old_text = '\t\tc.Flags().SetAnnotation(v, requiredAsGroup, nil)\n\t}\n\t// ...\n}';
    const new_text = '\t\tc.Flags().SetAnnotation(v, requiredAsGroupAnnotation, nil)\n\t}\n\t// ...\n}';
    assert.equal(ok(applyEditBlocks(GO, [{ old_text, new_text }])), GO.replace('requiredAsGroup,', 'requiredAsGroupAnnotation,'));
  });

  it('Go: an elided old_text with a full new_text lands on the one reading new_text confirms (the elided lines kept, between the same lines)', () => {
    const old_text = 'func (c *Command) MarkRequired(names ...string) {\n\tfor _, v := range names {\n\t\t// ... existing code ...\n\t\t}\n\t\tc.Flags().SetAnnotation(v, requiredAsGroup, nil)\n\t}\n\t// ...\n}';
    const new_text = [
      'func (c *Command) MarkRequired(names ...string) {',
      '\tfor _, v := range names {',
      '\t\tf := c.Flags().Lookup(v)',
      '\t\tif f == nil {',
      '\t\t\tpanic(v)',
      '\t\t}',
      '\t\tc.Flags().SetAnnotation(v, requiredAsGroupAnnotation, nil)',
      '\t}',
      '}',
    ].join('\n');
    assert.equal(ok(applyEditBlocks(GO, [{ old_text, new_text }])), GO.replace('requiredAsGroup,', 'requiredAsGroupAnnotation,'));
  });

  it('adversarial: a full new_text that rewrites the line right after an inner closing brace it elided is refused, not written twice', () => {
    // The region ends at the "  }" of `if (y)` (line 7); new_text changes `if (y)` to `if (z)`, so the
    // elided lines are not all kept and no reading is confirmed. The reading ending at the first
    // "  }" would fit new_text's head and write the rest of the function twice.
    const src = 'function a() {\n  if (x) {\n    one();\n  }\n  if (y) {\n    two();\n  }\n  return;\n}\n';
    const new_text = 'function a() {\n  if (x) {\n    one();\n  }\n  if (z) {\n    two();\n  }';
    const e = refused(applyEditBlocks(src, [{ old_text: 'function a() {\n  // ...\n  }', new_text }]));
    assert.match(e, /matches more than one region/);
  });

  it('adversarial: an elided function body replaced by a new one, with a generic last line, is refused (nothing confirms where it ends)', () => {
    const e = refused(applyEditBlocks(GO, [{ old_text: 'func (c *Command) MarkRequired(names ...string) {\n\t// ...\n}', new_text: 'func (c *Command) MarkRequired(names ...string) {\n\tc.markAll(names, requiredAsGroup)\n}' }]));
    assert.match(e, /matches more than one region \(lines 1-6 and 1-8 and 1-9 and 1-14 and 1-15\)/);
  });

  it('adversarial: a marker in new_text whose neighbours are not in the old text is refused, not guessed', () => {
    const e = refused(applyEditBlocks(PY, [{ old_text: fullOld, new_text: '    def get(self, key):\n        # ... existing code ...\n        return self.default' }]));
    assert.match(e, /elision marker before "return self.default", which is not a line of the matched old text/);
    assert.match(e, /Send the edit without elision markers/);
  });

  it('adversarial: a marker whose neighbouring lines occur twice is refused', () => {
    const src = 'a = [\n    1,\n]\nb = [\n    2,\n]\nc = [\n    3,\n]\n';
    const e = refused(applyEditBlocks(src, [{ old_text: src, new_text: 'a = [\n    1,\n]\n# ...\n]\nd = 4' }]));
    assert.match(e, /could stand for 2 different runs of lines/);
  });
});
