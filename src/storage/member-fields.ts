/**
 * Array fields whose elements every store indexes (the terms of a post), so that `containsAny`, `containsAll`
 * and `containsNone` on them find the records holding an element without reading every record.
 */
export const MEMBER_INDEXED_FIELDS: readonly string[] = ['categories', 'tags'];
