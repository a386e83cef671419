/**
 * What the database notifies besides the access clock (db/access-changes.ts): a channel per kind of
 * change that a migration's triggers notify on commit, heard by every API instance on the same
 * database (PostgreSQL's LISTEN/NOTIFY; PGlite's in-process listen), and passed here to whoever in
 * this process listens. Without a listener nothing is kept: a notification is news, not state.
 */

/** Alerts raised, acknowledged or deleted (migration 0023); the payload names the clients. */
export const ALERTS_CHANNEL = 'kulu_alerts';

export const NOTICE_CHANNELS = [ALERTS_CHANNEL] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];

export type NoticeListener = (payload: string) => void;

export class Notices {
  private readonly listeners = new Map<NoticeChannel, Set<NoticeListener>>();

  /** Listens to a channel; returns the function that stops listening. */
  on(channel: NoticeChannel, listener: NoticeListener): () => void {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  emit(channel: NoticeChannel, payload: string): void {
    for (const listener of [...(this.listeners.get(channel) ?? [])]) {
      try {
        listener(payload);
      } catch (err) {
        console.error(`database: a ${channel} listener failed:`, err);
      }
    }
  }

  /**
   * Notifications may have been missed (the listening connection was lost and is back): every
   * channel's listeners hear an empty payload, "anything may have changed".
   */
  missed(): void {
    for (const channel of NOTICE_CHANNELS) this.emit(channel, '');
  }

  /** How many listen to a channel (for tests). */
  count(channel: NoticeChannel): number {
    return this.listeners.get(channel)?.size ?? 0;
  }
}
