import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockVersion, parseBlocks, renderBlocks } from '../../../src/content/render/index.js';

// Expected trees come from the reference parser (its empty attribute arrays written here as {}).

test('parseBlocks: freeform text around a block with nested blocks and nested attributes', () => {
  const content =
    'before<!-- wp:columns {"a":{"b":[1,2]}} -->\n<div><!-- wp:column -->\n<p>c</p>\n<!-- /wp:column --></div>\n<!-- /wp:columns -->after';
  assert.deepEqual(parseBlocks(content), [
    { blockName: null, attrs: {}, innerBlocks: [], innerHTML: 'before', innerContent: ['before'] },
    {
      blockName: 'core/columns',
      attrs: { a: { b: [1, 2] } },
      innerBlocks: [
        { blockName: 'core/column', attrs: {}, innerBlocks: [], innerHTML: '\n<p>c</p>\n', innerContent: ['\n<p>c</p>\n'] },
      ],
      innerHTML: '\n<div></div>\n',
      innerContent: ['\n<div>', null, '</div>\n'],
    },
    { blockName: null, attrs: {}, innerBlocks: [], innerHTML: 'after', innerContent: ['after'] },
  ]);
});

test('parseBlocks: void blocks, namespaced names and unreadable attributes', () => {
  assert.deepEqual(parseBlocks('<!-- wp:separator /--><!-- wp:my-plugin/thing {bad} -->x<!-- /wp:my-plugin/thing -->'), [
    { blockName: 'core/separator', attrs: {}, innerBlocks: [], innerHTML: '', innerContent: [] },
    { blockName: 'my-plugin/thing', attrs: null, innerBlocks: [], innerHTML: 'x', innerContent: ['x'] },
  ]);
});

test('parseBlocks: unclosed blocks are closed at the end, innermost first', () => {
  assert.deepEqual(parseBlocks('<!-- wp:paragraph -->open<!-- wp:inner -->deep'), [
    { blockName: null, attrs: {}, innerBlocks: [], innerHTML: 'open', innerContent: ['open'] },
    { blockName: 'core/inner', attrs: {}, innerBlocks: [], innerHTML: 'deep', innerContent: ['deep'] },
    {
      blockName: 'core/paragraph',
      attrs: {},
      innerBlocks: [],
      innerHTML: 'open<!-- wp:inner -->deep',
      innerContent: ['open<!-- wp:inner -->deep'],
    },
  ]);
});

test('parseBlocks: an unterminated attribute object is not a delimiter and parses quickly', () => {
  const content = `<!-- wp:paragraph {"a":"${'b'.repeat(100_000)}`;
  const started = performance.now();
  assert.deepEqual(parseBlocks(content), [
    { blockName: null, attrs: {}, innerBlocks: [], innerHTML: content, innerContent: [content] },
  ]);
  assert.ok(performance.now() - started < 1000);
});

test('renderBlocks: delimiters go, saved HTML and freeform text stay', () => {
  assert.equal(
    renderBlocks('a<!-- wp:group -->\n<div><!-- wp:paragraph -->\n<p>p</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:group -->b'),
    'a\n<div>\n<p>p</p>\n</div>\nb',
  );
});

test('blockVersion: 1 only when the block delimiter prefix appears', () => {
  assert.equal(blockVersion('<!-- wp:paragraph -->'), 1);
  assert.equal(blockVersion('<!--wp:paragraph-->'), 0);
  assert.equal(blockVersion('plain <!-- comment -->'), 0);
  assert.equal(blockVersion(''), 0);
});
