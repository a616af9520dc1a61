/** Plain-data request and response types shared by the dispatcher, the resources and every adapter. */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Query parameters after PHP-style parsing: leaves are strings, `a[]=` gives lists, `a[x]=` gives maps. */
export type ParamValue = string | ParamValue[] | { [key: string]: ParamValue };
export type ParamMap = Record<string, ParamValue>;

export type HeaderMap = Record<string, string | string[] | undefined>;

/** An uploaded file from a multipart body or a raw upload. */
export interface UploadedFile {
  /** The form field name (`file` for raw uploads). */
  field: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

/**
 * What an adapter (or a host calling in-process) hands to `cms.handle()`.
 * `path` is relative to the API root: `/cms/v2/posts/12`, or `/` (or empty) for the index.
 */
export interface CmsRequest {
  method: string;
  path: string;
  /** The raw query string (without `?`), parsed PHP-style by the core, or already-parsed parameters. */
  query?: string | ParamMap;
  /** Header names in any case. */
  headers?: HeaderMap;
  /** Raw body bytes (or text), parsed once by the core according to `content-type`. */
  body?: Uint8Array | string;
  /**
   * A body the host's framework already parsed (an Express body parser, say). Objects are taken as
   * JSON parameters when the content type is JSON-like and as form parameters otherwise.
   */
  parsedBody?: unknown;
  /** A principal the host authenticated itself (see the auth guide); wins over credentials in headers. */
  user?: { id: number } | null;
  /**
   * The absolute URL of the API root as this request reached it (`http://host:3000/cms-json`). Adapters fill it;
   * links use it when the `url` option is not set.
   */
  baseUrl?: string;
  /** The client address, recorded with application-password use. */
  remoteAddress?: string;
}

/** Everything `cms.handle()` answers with. `body` is a JSON value, or text/bytes for non-JSON answers. */
export interface CmsResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}
