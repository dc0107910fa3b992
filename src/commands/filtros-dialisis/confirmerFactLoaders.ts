// What the dialyzer identity check takes from read models, declared by the write side, implemented in src/facts/.
/**
 * What a confirmer's standing reads from read models besides the membership (FactLoaders.isMember); the account itself
 * is folded from the user's stream (strong).
 */
export interface ConfirmerFactLoaders {
  /** Read from the staff model (eventual): the person's staff record may sign clinical records at `at`. */
  maySignClinicalRecords(tenantId: string, userId: string, at: string): Promise<boolean>;
}
