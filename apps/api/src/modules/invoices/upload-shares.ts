import { AppError } from '../../lib/errors.js';

/** What a 429 of the bytes in flight asks the caller to wait before trying again. */
export const UPLOAD_RETRY_AFTER_SECONDS = 30;

const busy = (code: 'uploadsBusy' | 'clientUploadsBusy') =>
  new AppError(429, code, undefined, { retryAfterSeconds: UPLOAD_RETRY_AFTER_SECONDS });

interface ClientBytes {
  /** Bytes its uploads in progress have actually sent so far. */
  received: number;
  /** What its uploads in progress declared (its storage quota and daily budget count them). */
  declared: number;
}

/**
 * The upload bytes one API instance is receiving, counted as they arrive (issue 37 item 4): a
 * declared length holds nothing, so uploads that announce much and trickle take no one's room.
 * Each client's uploads in progress hold at most its share (UPLOAD_IN_FLIGHT_PER_CLIENT_MB) and all
 * of them at most the instance's allowance (UPLOAD_IN_FLIGHT_MB): one client's slow uploads never
 * take another client's share. A request's bytes are freed when it ends, however it ends.
 */
export class UploadsInFlight {
  private all = 0;
  private readonly byClient = new Map<number, ClientBytes>();
  private readonly perClient: number;

  constructor(private readonly limits: { allBytes: number; perClientBytes: number }) {
    this.perClient = Math.min(limits.perClientBytes, limits.allBytes);
  }

  /** What the client's uploads in progress on this instance declared. */
  declaredBy(clientId: number): number {
    return this.byClient.get(clientId)?.declared ?? 0;
  }

  /**
   * Lets in a request of `clientId` declaring `declared` bytes when it fits in what its client's
   * share and the instance have left (a request is always let in when nothing else is held), else
   * 429 before its body is read: `clientUploadsBusy` when the client's own uploads fill its share,
   * `uploadsBusy` when the instance is full.
   */
  admit(clientId: number, declared: number): UploadHold {
    const mine = this.byClient.get(clientId) ?? { received: 0, declared: 0 };
    if (mine.received > 0 && mine.received + declared > this.perClient) throw busy('clientUploadsBusy');
    if (this.all > 0 && this.all + declared > this.limits.allBytes) throw busy('uploadsBusy');
    mine.declared += declared;
    this.byClient.set(clientId, mine);
    return new UploadHold(this, clientId, declared);
  }

  /** Counts bytes a request of `clientId` received; past a limit it is refused (429) and holds them no more. */
  take(hold: UploadHold, bytes: number): void {
    const mine = this.byClient.get(hold.clientId)!;
    mine.received += bytes;
    this.all += bytes;
    if (mine.received > this.perClient) throw busy('clientUploadsBusy');
    if (this.all > this.limits.allBytes) throw busy('uploadsBusy');
  }

  /** Frees what a request held (its received bytes and its declared length). */
  free(hold: UploadHold): void {
    const mine = this.byClient.get(hold.clientId)!;
    mine.received -= hold.bytes;
    mine.declared -= hold.declared;
    this.all -= hold.bytes;
    if (mine.declared <= 0 && mine.received <= 0) this.byClient.delete(hold.clientId);
  }
}

/** The bytes one upload request holds of its client's share and the instance's allowance. */
export class UploadHold {
  /** File bytes taken from the request's body so far. */
  bytes = 0;
  private released = false;

  constructor(
    private readonly inFlight: UploadsInFlight,
    readonly clientId: number,
    readonly declared: number,
  ) {}

  /** Counts `n` more received bytes (429 when they pass the client's share or the instance's allowance). */
  add(n: number): void {
    this.bytes += n;
    if (!this.released) this.inFlight.take(this, n);
  }

  /** Frees the request's bytes, once (it finished, failed, broke off or was cut off). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.inFlight.free(this);
  }
}
