/**
 * A resource, declared once: the namespace it serves, its dependencies, its route table and its in-process API.
 * `createCms` takes one list of declarations (src/resources.ts) and derives from it the routes in the index's order,
 * the namespaces the index lists and the members of the `Cms` object; the architecture tests find the resource
 * folders from the declarations too.
 *
 *   export const formsResource = defineResource({
 *     namespace: FORMS,
 *     deps: (shared: FormsDeps, options: { forms?: FormsOptions }) => ({ ...shared, forms: options.forms ?? {} }),
 *     routes: (deps) => formRoutes(deps, deps.forms),
 *     api: { name: 'forms', create: (deps) => createFormsApi(deps, deps.forms) },
 *   });
 */
import { NAMESPACE_DECLARATIONS, type Namespace } from './names.js';
import type { Registry, RouteTable } from './registry.js';

export interface Resource<Shared = never, Options = never, Deps = unknown, Api = unknown, ApiName extends string = string> {
  /** The namespace its routes are served under; null for routes at the root (`/batch/v1`). */
  readonly namespace: Namespace | null;
  /**
   * Its dependencies, made once per site: the shared ones (`CmsDeps`, as far as it names them) and its part of
   * the host's options. Without it, the shared ones as they are.
   */
  readonly deps?: (shared: Shared, options: Options) => Deps;
  /** Its routes, in the index's order. Run once per site, so it may also subscribe to shared events. */
  readonly routes?: (deps: Deps) => RouteTable;
  /** Its in-process API: the `Cms` object's member `name`. */
  readonly api?: { readonly name: ApiName; readonly create: (deps: Deps) => Api };
}

export function defineResource<Shared, Deps = Shared, Options = unknown, Api = never, ApiName extends string = never>(
  definition: Resource<Shared, Options, Deps, Api, ApiName>,
): Resource<Shared, Options, Deps, Api, ApiName> {
  return Object.freeze(definition);
}

/** Any declaration `createCms` can assemble with `Shared` dependencies and `Options`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ResourceOf<Shared, Options> = Resource<Shared, Options, any, unknown, string>;

/** The members of `Cms` the resources of a list add: their in-process APIs, by name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ResourceApis<List extends readonly Resource<never, never, any, unknown, string>[]> = {
  readonly [R in List[number] as R extends { api?: { name: infer Name extends string } } ? Name : never]:
    R extends { api?: { create: (deps: never) => infer Api } } ? Api : never;
};

/** The resources of one site, with the dependencies each was given. */
export class Resources<Shared, Options> {
  readonly #deps = new Map<ResourceOf<Shared, Options>, unknown>();

  constructor(readonly list: readonly ResourceOf<Shared, Options>[], shared: Shared, options: Options) {
    for (const resource of list) {
      if (resource.namespace && !NAMESPACE_DECLARATIONS.includes(resource.namespace)) throw new Error(`Namespace ${resource.namespace.name} is not declared.`);
      this.#deps.set(resource, resource.deps ? resource.deps(shared, options) : shared);
    }
  }

  /** The dependencies `resource` was given. */
  depsOf<Deps>(resource: Resource<never, never, Deps, unknown, string>): Deps {
    if (!this.#deps.has(resource as ResourceOf<Shared, Options>)) throw new Error('This resource is not in the list.');
    return this.#deps.get(resource as ResourceOf<Shared, Options>) as Deps;
  }

  /**
   * Registers every route in the index's order: the root routes first, then each declared namespace (its root
   * route listing it), followed by the routes of its resources in the list's order.
   */
  register(registry: Registry, namespaceRoot: Parameters<Registry['namespace']>[1]): void {
    const routesOf = (namespace: Namespace | null) => {
      for (const resource of this.list) {
        if (resource.namespace === namespace && resource.routes) registry.addRoutes(namespace?.name ?? '', resource.routes(this.#deps.get(resource)));
      }
    };
    routesOf(null);
    for (const namespace of NAMESPACE_DECLARATIONS) {
      registry.namespace(namespace.name, namespaceRoot);
      routesOf(namespace);
    }
  }

  /** Each resource's in-process API, by name. */
  apis(): Record<string, unknown> {
    const apis: Record<string, unknown> = {};
    for (const resource of this.list) if (resource.api) apis[resource.api.name] = resource.api.create(this.#deps.get(resource));
    return apis;
  }
}
