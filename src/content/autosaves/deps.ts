/** What the autosave routes need beyond the post-type kit: the key preview links are signed with. */
import type { PostType, PostTypeDeps } from '../post-type/index.js';

export interface AutosaveDeps extends PostTypeDeps {
  readonly previewKey: () => string | Buffer;
}

export type AutosavedType = PostType<AutosaveDeps>;
