// Records of one company for the equipment route walk (equipmentWalk.test.ts): one of each kind a path parameter names.
import assert from 'node:assert/strict';
import type { TestServer } from '../support/harness.js';
import { seedsFrom, type Seeds } from './adminSeeds.js';
import { dialyzerBody } from './filtrosWorld.js';

export async function seedEquipment(server: TestServer, token: string): Promise<Seeds> {
  const created = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const answer = await server.request('POST', path, { token, body });
    assert.equal(answer.status, 201, `${path}: ${JSON.stringify(answer.body)}`);
    return answer.body as Record<string, unknown>;
  };
  const dialyzer = await created('/filtros-dialisis', dialyzerBody());
  return seedsFrom({
    '/filtros-dialisis/{id}': dialyzer.id as string,
  });
}
