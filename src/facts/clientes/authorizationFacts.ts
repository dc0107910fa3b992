// Where the payer lookups find a patient's authorizations: the clientes read model (eventual), injected through
// AppServices.facts (server.ts); each authorization found is then folded from its stream by the write side.
import type { AuthorizationFactLoaders } from '../../commands/clientes/authorizationFactLoaders.js';
import type { AppServices } from '../../services.js';
import { CLIENTES_PROJECTION, PAYER_AUTHORIZATIONS } from '../../projections/clientes/clientesProjection.js';
import type { AuthorizationDoc } from '../../projections/clientes/authorizationDoc.js';

export const authorizationFactLoaders = (services: () => AppServices): AuthorizationFactLoaders => ({
  async idsOf(tenantId, of, limit) {
    const docs = await services()
      .projections.collection<AuthorizationDoc>(CLIENTES_PROJECTION, PAYER_AUTHORIZATIONS)
      .find(tenantId, { ...of }, { sort: { validFrom: 1, id: 1 }, limit });
    return docs.items.map((d) => d.id);
  },
});
