// Stream names `<tenant>.<category>-<id>`: pure, importing nothing, so an aggregate's event contract builds its stream
// function on them (the deciders-are-pure rule allows this one store module).

/** Tenant ids are the first segment of a stream name; they contain neither '-' nor '.'. */
export const TENANT_ID_PATTERN = /^[A-Za-z0-9_]{1,64}$/;
export const PLATFORM_TENANT = 'platform';

export function streamName(tenantId: string, category: string, aggregateId: string): string {
  if (!TENANT_ID_PATTERN.test(tenantId)) throw new Error(`invalid tenant id: ${tenantId}`);
  if (!/^[a-z][a-zA-Z0-9]*$/.test(category)) throw new Error(`invalid category: ${category}`);
  return `${tenantId}.${category}-${aggregateId}`;
}

export function tenantOfStream(stream: string): string {
  const dot = stream.indexOf('.');
  return dot < 0 ? '' : stream.slice(0, dot);
}

/** The category of a stream `<tenant>.<category>-<id>` (event type names are not unique across categories). */
export function categoryOfStream(stream: string): string {
  const dot = stream.indexOf('.');
  const dash = stream.indexOf('-', dot + 1);
  return dot < 0 || dash < 0 ? '' : stream.slice(dot + 1, dash);
}

/** The aggregate id of a stream `<tenant>.<category>-<id>`. */
export function aggregateIdOfStream(stream: string): string {
  return stream.slice(stream.indexOf('-') + 1);
}
