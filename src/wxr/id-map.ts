/**
 * Old ids (the file's) → new ids (this store's), and the links that pointed forward when their record was
 * written: a page before its parent, a post before its featured image, a reply before the comment it answers,
 * a category before its parent. Those are set once the whole file has been read.
 */

/** The file's ids → this store's, per kind of record. */
export interface WxrIdMaps {
  posts: Map<number, number>;
  terms: Map<number, number>;
  users: Map<number, number>;
  comments: Map<number, number>;
}

export class IdMap implements WxrIdMaps {
  readonly posts = new Map<number, number>();
  readonly terms = new Map<number, number>();
  readonly users = new Map<number, number>();
  readonly comments = new Map<number, number>();
  /** Posts this import created (links and rewritten addresses only touch those). */
  readonly createdPosts: number[] = [];
  /** New post → the file's parent id. */
  readonly postParents: [post: number, oldParent: number][] = [];
  /** New post → the file's id of its featured image. */
  readonly featuredImages: [post: number, oldAttachment: number][] = [];
  /** New comment → the file's id of the comment it answers. */
  readonly commentParents: [comment: number, oldParent: number][] = [];
  /** New term → its parent's slug. */
  readonly termParents: [term: number, taxonomy: 'category' | 'post_tag', parentSlug: string][] = [];
  /** Addresses of fetched files: the remote one → the stored one. */
  readonly addresses = new Map<string, string>();
  private readonly logins = new Map<string, number>();
  private readonly slugs = new Map<string, number>();

  userByLogin(login: string): number | undefined {
    return this.logins.get(login.toLowerCase());
  }

  rememberLogin(login: string, id: number): void {
    this.logins.set(login.toLowerCase(), id);
  }

  termBySlug(taxonomy: string, slug: string): number | undefined {
    return this.slugs.get(`${taxonomy}\u0000${slug}`);
  }

  rememberSlug(taxonomy: string, slug: string, id: number): void {
    this.slugs.set(`${taxonomy}\u0000${slug}`, id);
  }

  /** The maps alone, for the caller. */
  maps(): WxrIdMaps {
    return { posts: this.posts, terms: this.terms, users: this.users, comments: this.comments };
  }
}
