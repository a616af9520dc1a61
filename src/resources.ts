/**
 * Every resource of the interface, in the index's order within each namespace. `createCms` assembles this list:
 * the routes, the namespaces the index lists and the in-process APIs of the `Cms` object all come from it, and
 * from each resource's own declaration (`defineResource`, src/core/resource.ts).
 */
import { batchResource } from './batch/index.js';
import { commentsResource } from './comments/index.js';
import { postsAndPagesResource } from './content/index.js';
import { termsResource } from './content/terms/index.js';
import type { ResourceApis } from './core/resource.js';
import { discoveryResource } from './discovery/index.js';
import { oembedResource } from './embed/index.js';
import { formsResource } from './forms/index.js';
import { mailingResource } from './mailing/index.js';
import { mediaResource } from './media/index.js';
import { searchResource } from './search/index.js';
import { settingsResource } from './settings/index.js';
import { slidersResource } from './sliders/index.js';
import { usersResource } from './users/index.js';
import { webhooksResource } from './webhooks/index.js';

export const RESOURCES = [
  batchResource,
  oembedResource,
  formsResource,
  slidersResource,
  mailingResource,
  postsAndPagesResource, mediaResource, discoveryResource, termsResource, usersResource, commentsResource, searchResource, settingsResource,
  webhooksResource,
] as const;

/** The in-process APIs the resources add to the `Cms` object (`cms.forms`, `cms.users`, …). */
export type ResourceApiMembers = ResourceApis<typeof RESOURCES>;
