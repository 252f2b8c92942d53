'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { slugify } = require('../src/slugify.js');

test('joins words with dashes', () => {
  assert.strictEqual(slugify('Hello, World!'), 'hello-world');
});

test('trims leading and trailing separators', () => {
  assert.strictEqual(slugify('  --Tandem--  '), 'tandem');
});
