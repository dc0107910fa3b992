// What the payer lookups take from read models, declared by the write side and implemented in src/facts/clientes/.
/** Where the patient's authorizations are found: the read model knows them by patient and client. */
export interface AuthorizationFactLoaders {
  /**
   * Read from the payer authorizations model (eventual): the ids of the patient's authorizations (of one client when
   * named), by start of validity then id, at most `limit`; each is then folded from its own stream (strong).
   */
  idsOf(tenantId: string, of: { patientId: string; clientId?: string }, limit: number): Promise<string[]>;
}
