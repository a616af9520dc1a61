/**
 * The post-type kit: everything a resource made of post-type records uses (posts and pages, media, revisions,
 * autosaves, and the modules that read posts). Import from here, never from the files behind it.
 */
export { definePostType, isViewable, type PostType, type PostTypeDeps } from './define.js';
export {
  POST_TYPE, PAGE_TYPE, POST_FORMATS, WRITABLE_STATUSES, REGISTERED_STATUSES,
  type PostTypeDefinition, type TaxonomyBinding,
} from './definition.js';
export { POSTS_COLLECTION, isPostRecord, postsIn, type PostRecord, type PostFields } from './record.js';
export { buildItemSchema, type ItemSchema } from './schema.js';
export { collectionArgs, contextArg, itemArgs } from './args.js';
export { capabilitiesOf, postSubject, subjectOf, type Abilities } from './capabilities.js';
export { buildScope, scopeOf, type PostScope, type ScopeSource } from './scope.js';

export {
  canReadPost, createPermission, deletePermission, invalidPostId, listPermission, loadPost, loadRecord, onlyVisible,
  readPermission, requirePost, updatePermission,
} from './permissions.js';
export { checkListOrder, createPost, listPosts, readPost, removePost, updatePost } from './handlers.js';

export { buildListPlan, type ListEnvironment, type ListPlan } from './query.js';
export { listVisibility, type ListVisibility } from './visibility.js';
export { parseSearch, relevanceRank, textSearch } from './search.js';

export { preparePost, passwordMatches, canSeeProtectedContent, type PrepareOptions } from './prepare.js';
export { REST_BASES, revisionSummary } from './links.js';
export { pageUri, permalinkOf, type LinkEnvironment } from './permalink.js';
export { uniquePostSlug } from './unique-slug.js';

export { prepareChanges, type PostChanges } from './write.js';
export { savePost, trashPost, deletePost, type SaveEnvironment } from './save.js';

export {
  createPostEvents,
  type PostEvents, type PostEventHub, type PostSavedEvent, type PostDeletedEvent, type PostSavedListener,
  type PostDeletedListener, type SaveReason,
} from './events.js';
export { asPublishedWhenDue, nextScheduledPublish, publishDuePosts, publishingDuePosts } from './scheduler.js';
export { authorPostsHandler, type AuthorPosts, type DeletionActor } from './author-posts.js';
export { DEFAULT_PERMALINK_STRUCTURE, resolvePostSettings, type PostSettings, type ResolvedPostSettings } from './settings.js';
export { dateWithGmt, filterDateToLocal, formatUtc, gmtToLocal, localToGmt, nowDates, parseStored } from './dates.js';
