/** `cms/v2/posts` and `cms/v2/pages`. */
export { postRoutes, type PostsAndPages } from './routes.js';
