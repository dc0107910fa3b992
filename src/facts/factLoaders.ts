// The one place the write side's fact loaders are built (issue 22 item 3); the composition root (server.ts) wires them
// into AppServices.facts. They read read models, so they live outside src/commands: no command imports the read side.
import type { FactLoaders } from '../commands/factLoaders.js';
import type { AppServices } from '../services.js';
import { authorizationFactLoaders } from './clientes/authorizationFacts.js';
import { companyFactLoaders } from './empresas/companyFacts.js';
import { confirmerFactLoaders } from './filtros-dialisis/confirmerFacts.js';
import { stockFactLoaders } from './productos/stockFacts.js';

/** `services` is read at each call: the loaders are built before the services they read are complete. */
export const factLoaders = (services: () => AppServices): FactLoaders => ({
  ...companyFactLoaders(services),
  stock: stockFactLoaders(services),
  confirmers: confirmerFactLoaders(services),
  authorizations: authorizationFactLoaders(services),
});
