import type {
  ContextConfigDefault,
  FastifyContextConfig,
  FastifyInstance,
  FastifySchema,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Permission } from '@kulu/shared';

/** Who may call a route: a permission (a list: any one of them), or the route's whole access config. */
export type Access = Permission | readonly Permission[] | FastifyContextConfig;

/** A route's OpenAPI schema but its tags (the module's, unless it names its own). */
export type RouteSchema = Omit<FastifySchema, 'tags'> & { tags?: string[] };

/** A handler whose request and answer are typed by the route's zod schema. */
export type RouteHandler<S extends RouteSchema> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  ZodTypeProvider
>;

const isConfig = (access: Access): access is FastifyContextConfig =>
  typeof access === 'object' && !Array.isArray(access);

type Declare = <S extends RouteSchema>(
  url: string,
  access: Access,
  schema: S,
  handler: RouteHandler<S>,
) => void;

/**
 * One way to state a module's routes: `route.get(url, access, schema, handler)`, where the access
 * is the route's permission or its config (`{ auth: true }`, `{ permission, client: 'clientId' }`)
 * and the schema (summary, querystring, body, response) is tagged with the module's tags.
 */
export function declareRoutes(
  app: FastifyInstance,
  tags: string[],
): Record<'get' | 'post' | 'put' | 'patch' | 'delete', Declare> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const declare =
    (method: HTTPMethods): Declare =>
    (url, access, schema, handler) => {
      const config = isConfig(access) ? access : { permission: access };
      r.route({ method, url, config, schema: { tags, ...schema }, handler: handler as RouteHandlerMethod });
    };
  return {
    get: declare('GET'),
    post: declare('POST'),
    put: declare('PUT'),
    patch: declare('PATCH'),
    delete: declare('DELETE'),
  };
}
