import type { z } from 'zod';
import { message, type MessageCode } from '@kulu/shared';
import { callerOf } from '../plugins/access.js';
import { requestLanguage } from '../plugins/errors.js';
import type { Caller } from '../types.js';
import type { Access, declareRoutes } from './routes.js';

type Action = 'deactivate' | 'activate';

/**
 * The deactivate and activate workflows of one kind of user account: `POST <base>/:id/deactivate`
 * and `…/activate`, each setting the account's status (`setStatus`, given the path's parameters)
 * and answering the account with the action's message as `{ user, code, message }`.
 */
export function accountStatusRoutes<P, U>(
  route: ReturnType<typeof declareRoutes>,
  def: {
    base: string;
    access: Access;
    params: z.ZodType<P>;
    /** The saved answer, `{ user, code, message }`: its `user` is what `setStatus` returns. */
    response: z.ZodType<{ user: U; code: string; message: string }>;
    summaries: Record<Action, string>;
    codes: Record<Action, MessageCode>;
    setStatus: (caller: Caller, params: P, status: 'inactive' | 'active') => Promise<U>;
  },
): void {
  for (const [action, status] of [
    ['deactivate', 'inactive'],
    ['activate', 'active'],
  ] as const) {
    route.post(
      `${def.base}/:id/${action}`,
      def.access,
      { summary: def.summaries[action], params: def.params, response: { 200: def.response } },
      async (req) => {
        const user = await def.setStatus(callerOf(req), req.params as P, status);
        const code = def.codes[action];
        return { user, code, message: message(code, requestLanguage(req)) };
      },
    );
  }
}
