// A confirmer's signing rights as the dialyzer identity check reads them from the staff model (colaboradores, eventual),
// injected through AppServices.facts; the membership is the company facts' isMember.
import type { ConfirmerFactLoaders } from '../../commands/filtros-dialisis/confirmerFactLoaders.js';
import type { AppServices } from '../../services.js';
import { maySignClinicalRecords } from '../../queries/colaboradores/maySign.js';

export const confirmerFactLoaders = (services: () => AppServices): ConfirmerFactLoaders => ({
  maySignClinicalRecords: async (tenantId, userId, at) =>
    (await maySignClinicalRecords({ services: services(), auth: { tenantId } }, userId, at)).allowed,
});
