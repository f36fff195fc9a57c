import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';
import { actorOf } from '../../auth/actor.js';
import { ROLE_FIXTURES } from '../../auth/roles.js';
import { canAssignRole } from '../../auth/staff-rules.js';
import { presentRole } from '../users/users.present.js';
import { loadRoles } from '../users/users.queries.js';

const FIXTURE_ORDER = ROLE_FIXTURES.map((role) => role.name as string);

/**
 * `GET /roles/`: every role in Ghost's fixture order (no pagination); `permissions=assign` keeps the roles
 * the caller may give someone, never Owner.
 */
export function rolesRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Record<string, unknown> }>(
    '/roles/',
    { config: { frame: { docName: 'roles', method: 'browse' }, permission: 'role.browse' } },
    async (request) => {
      const mode = request.query.permissions;
      if (mode !== undefined && mode !== 'assign') throw errors.validation('Validation (AllowedValues) failed for permissions');
      const rank = (name: string) => (FIXTURE_ORDER.includes(name) ? FIXTURE_ORDER.indexOf(name) : FIXTURE_ORDER.length);
      let roles = [...(await loadRoles(request.ctx.db)).byId.values()].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
      if (mode === 'assign') {
        const actor = actorOf(request.ctx);
        roles = roles.filter((role) => role.name !== 'Owner' && canAssignRole(actor, role.name));
      }
      return { roles: roles.map((role) => presentRole(role)) };
    },
  );
}
