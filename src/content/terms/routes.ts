/**
 * The routes of `cms/v2/categories`, `cms/v2/tags` and `cms/v2/wp_pattern_category`; as the reference's, they may
 * be sent in `/batch/v1`.
 */
import { CREATABLE, DELETABLE, EDITABLE, endpoint, READABLE, type RouteTable } from '../../core/registry.js';
import { deleteArgs, listArgs, readArgs, updateArgs, writeArgs } from './args.js';
import type { TermType } from './deps.js';
import { createTerm, deleteTerm, listTerms, readTerm, updateTerm } from './handlers.js';
import { canCreateTerm, canDeleteTerm, canListTerms, canReadTerm, canUpdateTerm } from './permissions.js';
import { termSchema } from './schema.js';

export function termRoutes({ categories, tags, patternCategories }: { categories: TermType; tags: TermType; patternCategories: TermType }): RouteTable {
  return [
    { path: '/categories', allowBatch: true, schema: () => termSchema('category'), cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: listArgs('category'), permission: (c) => canListTerms(c, categories), handler: (c) => listTerms(c, categories) }),
      endpoint({ methods: CREATABLE, args: writeArgs('category', true), permission: (c) => canCreateTerm(c, categories), handler: (c) => createTerm(c, categories) }),
    ] },
    { path: '/categories/(?P<id>[\\d]+)', allowBatch: true, schema: () => termSchema('category'), cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: readArgs(), permission: (c) => canReadTerm(c, categories), handler: (c) => readTerm(c, categories) }),
      endpoint({ methods: EDITABLE, args: updateArgs('category'), permission: (c) => canUpdateTerm(c, categories), handler: (c) => updateTerm(c, categories) }),
      endpoint({ methods: DELETABLE, args: deleteArgs(), permission: (c) => canDeleteTerm(c, categories), handler: (c) => deleteTerm(c, categories) }),
    ] },
    { path: '/tags', allowBatch: true, schema: () => termSchema('post_tag'), cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: listArgs('post_tag'), permission: (c) => canListTerms(c, tags), handler: (c) => listTerms(c, tags) }),
      endpoint({ methods: CREATABLE, args: writeArgs('post_tag', true), permission: (c) => canCreateTerm(c, tags), handler: (c) => createTerm(c, tags) }),
    ] },
    { path: '/tags/(?P<id>[\\d]+)', allowBatch: true, schema: () => termSchema('post_tag'), cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: readArgs(), permission: (c) => canReadTerm(c, tags), handler: (c) => readTerm(c, tags) }),
      endpoint({ methods: EDITABLE, args: updateArgs('post_tag'), permission: (c) => canUpdateTerm(c, tags), handler: (c) => updateTerm(c, tags) }),
      endpoint({ methods: DELETABLE, args: deleteArgs(), permission: (c) => canDeleteTerm(c, tags), handler: (c) => deleteTerm(c, tags) }),
    ] },
    { path: '/wp_pattern_category', allowBatch: true, schema: () => termSchema('wp_pattern_category'), cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: listArgs('wp_pattern_category'), permission: (c) => canListTerms(c, patternCategories), handler: (c) => listTerms(c, patternCategories) }),
      endpoint({ methods: CREATABLE, args: writeArgs('wp_pattern_category', true), permission: (c) => canCreateTerm(c, patternCategories), handler: (c) => createTerm(c, patternCategories) }),
    ] },
    { path: '/wp_pattern_category/(?P<id>[\\d]+)', allowBatch: true, schema: () => termSchema('wp_pattern_category'), cache: { varies: 'caller' }, endpoints: [
      endpoint({ methods: READABLE, args: readArgs(), permission: (c) => canReadTerm(c, patternCategories), handler: (c) => readTerm(c, patternCategories) }),
      endpoint({ methods: EDITABLE, args: updateArgs('wp_pattern_category'), permission: (c) => canUpdateTerm(c, patternCategories), handler: (c) => updateTerm(c, patternCategories) }),
      endpoint({ methods: DELETABLE, args: deleteArgs(), permission: (c) => canDeleteTerm(c, patternCategories), handler: (c) => deleteTerm(c, patternCategories) }),
    ] },
  ];
}
