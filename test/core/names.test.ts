import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NEUTRAL_NAMES, WORDPRESS_NAMES, namesFor } from '../../src/core/names.js';

describe('names', () => {
  it('renames each neutral namespace to the reference name under wordpress', () => {
    const expected: [string, string][] = [
      ['cms/v2', 'wp/v2'], ['forms/v1', 'contact-form-7/v1'], ['mailing/v1', 'mc4wp/v1'], ['slider', 'sliderrevolution'],
      ['cms-site-health/v1', 'wp-site-health/v1'], ['cms-block-editor/v1', 'wp-block-editor/v1'],
      ['cms-abilities/v1', 'wp-abilities/v1'], ['oembed/1.0', 'oembed/1.0'], ['batch/v1', 'batch/v1'],
    ];
    for (const [neutral, wordpress] of expected) {
      assert.equal(WORDPRESS_NAMES.namespace(neutral), wordpress);
      assert.equal(NEUTRAL_NAMES.namespace(neutral), neutral);
    }
  });

  it('renames only whole leading namespace segments of a path', () => {
    const cases: [string, string][] = [
      ['/cms/v2', '/wp/v2'],
      ['/cms/v2/posts/4', '/wp/v2/posts/4'],
      ['/slider', '/sliderrevolution'],
      ['/slider/sliders/stream/1,2', '/sliderrevolution/sliders/stream/1,2'],
      ['/sliders/x', '/sliders/x'],
      ['/forms/v1/contact-forms/7/feedback', '/contact-form-7/v1/contact-forms/7/feedback'],
      ['/mailing/v1/lists', '/mc4wp/v1/lists'],
      ['/oembed/1.0/embed', '/oembed/1.0/embed'],
      ['/', '/'],
      ['', ''],
      ['/wp/v2/posts', '/wp/v2/posts'],
      ['/cms/v3/posts', '/cms/v3/posts'],
      ['/__proto__/x', '/__proto__/x'],
      ['/constructor', '/constructor'],
    ];
    for (const [path, renamed] of cases) assert.equal(WORDPRESS_NAMES.path(path), renamed, path);
    for (const [path] of cases) assert.equal(NEUTRAL_NAMES.path(path), path);
  });

  it('picks the API root default by scheme and refuses unknown schemes', () => {
    assert.equal(namesFor(undefined).defaultApiRoot, '/cms-json');
    assert.equal(namesFor('wordpress').defaultApiRoot, '/wp-json');
    assert.throws(() => namesFor('drupal' as never), /Unknown names 'drupal'/);
  });
});
