import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCms } from '../../src/cms.js';
import { ROOT, sourceFiles } from './graph.js';

/** Handlers, arguments and paging, read from the sources and from the assembled route tables. */
const TEXT = new Map([...sourceFiles().keys()].map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));

/** Checks a handler would only need if its parameters were not typed from its arguments. */
const RECHECK = /typeof (context\.)?params[.[]|\b(Number|String|Boolean)\((context\.)?params[.[]/g;

/**
 * Files that still read a parameter by checking its type, with how many times. They may only shrink. They read
 * parameters no argument declares: path groups the reference declares no argument for (a user's `user_id` and
 * `uuid`, a form's `id`, the `id` of the autosave routes, which loadPost shares) and the core's untyped index
 * arguments.
 */
const RECHECKS_LEFT: Readonly<Record<string, number>> = {
  'src/users/routes/application-passwords.ts': 2,
  'src/forms/handlers.ts': 1,
  'src/core/index-document.ts': 1,
  'src/core/request-objects.ts': 1,
  'src/content/post-type/permissions.ts': 1,
};

/** The verbs a handler's name starts with, followed by what it acts on: `listPosts`, `createTerm`, `runBatch`. */
const HANDLER_NAME = /^(list|read|create|update|rename|delete|edit|submit|confirm|cancel|introspect|run|embed|proxy|postProcess)[A-Z]\w*$/;
/** Handler names that break the rule today, in code being restructured elsewhere. They may only disappear. */
const NAMES_LEFT = ['removePost'];

describe('handlers', () => {
  it('read declared parameters as typed, without checking their type again', () => {
    const found = new Map<string, number>();
    for (const [path, text] of TEXT) {
      const count = text.match(RECHECK)?.length ?? 0;
      if (count > 0) found.set(path, count);
    }
    for (const [path, count] of found) {
      const allowed = RECHECKS_LEFT[path] ?? 0;
      assert.ok(count <= allowed, `${path}: ${count} type checks of parameters (at most ${allowed}); type the handler with Params<typeof …Args>`);
    }
  });

  it('are named verb + noun, with no Handler suffix', () => {
    const names = new Set<string>();
    for (const [, text] of TEXT) {
      if (!/\bendpoints:\s*\[/.test(text)) continue;
      for (const match of text.matchAll(/\bhandler:\s*(?:\(\w*\)\s*=>\s*)?(\w+)\b/g)) names.add(match[1]!);
    }
    assert.ok(names.size > 60, `the route tables were read (${names.size} handlers)`);
    const wrong = [...names].filter((name) => !HANDLER_NAME.test(name) && !NAMES_LEFT.includes(name));
    assert.deepEqual(wrong, [], 'handler names: verb + noun');
    assert.deepEqual([...names].filter((name) => name.endsWith('Handler')), []);
  });
});

describe('paging', () => {
  it('is written once, in src/core/paging.ts', () => {
    const paging = 'src/core/paging.ts';
    const elsewhere = (pattern: RegExp) => [...TEXT].filter(([path, text]) => path !== paging && pattern.test(text)).map(([path]) => path);
    assert.deepEqual(elsewhere(/larger than the number of pages available/), [], 'the past-the-end error');
    assert.deepEqual(elsewhere(/\[`\$\{\w+\}-Total/), [], 'the paging headers (CORS only names them)');
    assert.deepEqual(elsewhere(/\bper_page:\s*(args\.integer|arg)\(/), [], 'the per_page argument: pageArgs()');
    assert.deepEqual(elsewhere(/\(\s*page\s*-\s*1\s*\)\s*\*/), [], 'the offset of a page: pageWindow() or pageOffset()');
    // The contact-form and slider lists declare no arguments, as the reference's: they read the raw values.
    assert.deepEqual(elsewhere(/params\.per_page/).sort(), ['src/forms/args.ts', 'src/sliders/handlers.ts'], 'per_page is read by pageWindow()');
  });

  it('declares page and per_page of every paged route with pageArgs()', () => {
    const cms = createCms();
    const transforms = new Set<unknown>();
    const pagedRoutes: string[] = [];
    for (const route of cms.registry.routes) {
      for (const endpoint of route.endpoints) {
        for (const name of ['page', 'per_page']) {
          const declared = endpoint.args.get(name);
          if (!declared) continue;
          transforms.add(declared.transform);
          assert.equal(declared.schema.minimum, 1, `${route.pattern} ${name}`);
          if (name === 'per_page') assert.equal(declared.schema.maximum, 100, route.pattern);
        }
        if (endpoint.args.has('per_page')) pagedRoutes.push(route.pattern);
      }
    }
    assert.ok(pagedRoutes.length >= 12, `paged routes found: ${pagedRoutes.join(', ')}`);
    assert.equal(transforms.size, 1, 'one sanitiser (absint) for every page and per_page: one declaration');
  });
});
