import { ENVIRONMENT_KINDS } from '../../shared/domains/sites/environments.ts';
import { MAX_ROW_ID } from '../middleware/validate.ts';

/** What the document says about one `{name}` of a route's path. */
export type PathParameter = { description: string; schema: Record<string, unknown> };

/**
 * The kinds of path parameter the API has, so a route declares `params: { id: rowId('site') }`
 * and clients get the type the handler really accepts: a row id is digits up to 2^31-1 (anything
 * else answers 404, as an id that names nothing), other ids are UUIDs or names.
 */
export const rowId = (what: string): PathParameter => ({ description: `The ${what}'s id`, schema: { type: 'integer', minimum: 1, maximum: MAX_ROW_ID } });

export const uuid = (what: string): PathParameter => ({ description: `The ${what}'s id (a UUID)`, schema: { type: 'string', format: 'uuid' } });

export const name = (description: string, schema: Record<string, unknown> = {}): PathParameter => ({
  description,
  schema: { type: 'string', minLength: 1, ...schema },
});

export const environmentKind: PathParameter = {
  description: "The environment, by its kind (a site has at most one of each): also the environment's `kind`",
  schema: { type: 'string', enum: [...ENVIRONMENT_KINDS] },
};

/** `/sites/{id}/environments/{env}/...`: the parameters every environment route shares. */
export const environmentParams = { id: rowId('site'), env: environmentKind };
