// A confirmer's standing in the company as the dialyzer identity check reads it from read models (eventual):
// membership (platform) and the staff record's signing rights (colaboradores), injected through AppServices.facts.
import type { ConfirmerFactLoaders } from '../../commands/filtros-dialisis/confirmerFactLoaders.js';
import type { AppServices } from '../../services.js';
import { membershipIn } from '../../queries/platform/memberships.js';
import { maySignClinicalRecords } from '../../queries/colaboradores/maySign.js';

export const confirmerFactLoaders = (services: () => AppServices): ConfirmerFactLoaders => ({
  isActiveMember: async (userId, tenantId) => (await membershipIn(services(), userId, tenantId)) !== null,
  maySignClinicalRecords: async (tenantId, userId, at) =>
    (await maySignClinicalRecords({ services: services(), auth: { tenantId } }, userId, at)).allowed,
});
