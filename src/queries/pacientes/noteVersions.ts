// The versions of a nursing note: from their own collection once the note was amended, or the note's own content
// (version 1) while it never was; the latest few for a read of the note, every one page by page.
import { LIMITS } from '../../limits.js';
import type { Collection, Page } from '../../stores/readStore.js';
import type { TenantScope } from '../tenantScope.js';
import {
  firstVersion,
  versionsFromStream,
  type NoteRecord,
  type NoteVersion,
  type NoteVersionDoc,
} from '../../projections/pacientes/noteDoc.js';
import { streamName } from '../../stores/eventStore.js';
import { noteModel } from './readModel.js';
import { NOTE_VERSIONS, PACIENTES_PROJECTION } from '../../projections/pacientes/pacientesProjection.js';
import { occurredSince, stampOf } from '../changedSince.js';

const noteVersions = (ctx: TenantScope): Collection<NoteVersionDoc> =>
  ctx.services.projections.collection<NoteVersionDoc>(PACIENTES_PROJECTION, NOTE_VERSIONS);

/** The note's versions up to its own: a remote store writes versions before the note, so a read may meet one early. */
const versionsReached = (note: NoteRecord) => ({ noteId: note.id, version: { $lte: note.version } });

const versionOf = ({ tenantId: _t, id: _id, noteId: _n, _position, _changedAt, ...version }: NoteVersionDoc): NoteVersion => version;

/** The latest versions of a note (at most LIMITS.nursingNotes.versionsInline), oldest first. */
export async function latestVersions(ctx: TenantScope, note: NoteRecord): Promise<NoteVersion[]> {
  if (!note.amended) return [firstVersion(note)];
  const page = await noteVersions(ctx).find(ctx.auth.tenantId, versionsReached(note), {
    sort: { version: -1 },
    limit: LIMITS.nursingNotes.versionsInline,
  });
  return page.items.map(versionOf).reverse();
}

/**
 * The latest versions of a note read after a write: from their collection, or from the note's own stream while the
 * collection has not reached the note's version yet (the note was folded from its stream).
 */
export async function latestVersionsUpToNote(ctx: TenantScope, note: NoteRecord): Promise<NoteVersion[]> {
  const versions = await latestVersions(ctx, note);
  if (versions[versions.length - 1]?.version === note.version) return versions;
  const events = await ctx.services.events.readStream(streamName(ctx.auth.tenantId, noteModel.category, note.id));
  return versionsFromStream(events).slice(-LIMITS.nursingNotes.versionsInline);
}

/** Every version of a note, oldest first, a page at a time. */
export async function versionPage(
  ctx: TenantScope,
  note: NoteRecord,
  limit: number,
  cursor?: string,
  updatedSince?: string,
): Promise<Page<NoteVersion>> {
  if (!note.amended) return { items: [firstVersion(note)].filter((v) => occurredSince(updatedSince)(v.recordedAt)), nextCursor: null };
  const recorded = updatedSince === undefined ? {} : { recordedAt: { $gte: stampOf(updatedSince) } };
  const page = await noteVersions(ctx).find(
    ctx.auth.tenantId,
    { ...versionsReached(note), ...recorded },
    {
      sort: { version: 1 },
      limit,
      after: cursor ?? null,
    },
  );
  return { items: page.items.map(versionOf), nextCursor: page.nextCursor };
}
