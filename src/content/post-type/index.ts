/**
 * The post-type kit: everything a resource made of post-type records uses (posts and pages, media, revisions,
 * autosaves, and the modules that read posts). Import from here, never from the files behind it.
 */
export { definePostType, isViewable, type PostType, type PostTypeDeps } from './define.js';
export { POST_TYPE, PAGE_TYPE, POST_FORMATS, type PostTypeDefinition } from './definition.js';
export { POSTS_COLLECTION, isPostRecord, postsIn, type PostRecord } from './record.js';
export { buildItemSchema, type ItemSchema } from './schema.js';
export { collectionArgs, contextArg, itemArgs } from './args.js';
export { capabilitiesOf, postSubject, subjectOf } from './capabilities.js';
export { buildScope, scopeOf, type PostScope } from './scope.js';

export { canReadPost, isPublicStatus, publicStatusCondition, readsPost } from './readability.js';
export {
  createPermission, deletePermission, invalidPostId, listPermission, loadRecord, onlyVisible, readPermission, requirePost, updatePermission,
} from './permissions.js';
export { checkListOrder, createPost, listPosts, readPost, removePost, updatePost } from './handlers.js';

export { buildListPlan } from './query.js';
export { listVisibility } from './visibility.js';
export { parseSearch, relevanceRank, textSearch } from './search.js';

export { preparePost, passwordMatches } from './prepare.js';
export { renderedContentAsync, renderedExcerptAsync } from './render-cache.js';
export { REST_BASES } from './links.js';
export { pageUri, permalinkOf, type LinkEnvironment } from './permalink.js';
export { uniquePostSlug } from './unique-slug.js';

export { prepareChanges, type PostChanges } from './write.js';
export { savePost, deletePost } from './save.js';

export {
  createPostEvents, type PostEvents, type PostEventHub, type PostSavedEvent, type PostDeletedEvent, type SaveReason,
} from './events.js';
export { keptNextScheduled, publishingDuePosts } from './scheduler.js';
export { authorPostsHandler } from './author-posts.js';
export { resolvePostSettings, type PostSettings, type ResolvedPostSettings } from './settings.js';
export { dateWithGmt, filterDateToLocal, formatUtc, gmtToLocal, localToGmt, nowDates, parseStored } from './dates.js';
