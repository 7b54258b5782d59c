/** The videos each token was given, so that `/clip/videos` extend can continue one by its id. */
import type { Db } from '../../store/database.js';

export interface VideoSource {
  prompt: string;
  /** This service's URL of the last frame (PNG): where an extension starts. */
  lastFrameUrl: string;
  width: number;
  height: number;
  /** The encoder settings it was made with: an extension of it is encoded alike, to join it. */
  quality?: 'std' | 'pro';
  /** The channel that made it and the upstream's own id of the video, when an upstream did. */
  upstream?: { channel: string; videoId: string };
}

export interface KeptVideo {
  id: string;
  item: Record<string, unknown>;
  source: VideoSource;
}

export class VideoLibrary {
  constructor(private readonly db: Db) {}

  async save(tokenId: string, taskId: string, video: KeptVideo): Promise<void> {
    await this.db
      .insertInto('videos')
      .values({
        id: video.id,
        token_id: tokenId,
        task_id: taskId,
        item: JSON.stringify(video.item),
        source: JSON.stringify(video.source),
        created_at: Date.now(),
      })
      // A task that runs again after its worker died saves the same id again.
      .onConflict((c) => c.column('id').doNothing())
      .execute();
  }

  async video(tokenId: string, id: string): Promise<KeptVideo | undefined> {
    const row = await this.db
      .selectFrom('videos')
      .selectAll()
      .where('id', '=', id)
      .where('token_id', '=', tokenId)
      .executeTakeFirst();
    return row && { id: row.id, item: JSON.parse(row.item), source: JSON.parse(row.source) as VideoSource };
  }
}
