/**
 * Human takeover: while a person holds a session in the web viewer, the agent's input tools and
 * resize fail with HUMAN_IN_CONTROL (the session's input gate); reads and waits go on. When they release it,
 * the agent's next result carries a notice of what was typed meanwhile, so it knows the screen
 * changed under it.
 */
import { TuiError } from "../errors.ts";
import type { Session } from "../session/session.ts";
import { log } from "../util/log.ts";

/** What a human did while holding control, reported once to the agent afterwards. */
export interface HumanInputNotice {
  bytes: number;
  /** Keystroke/paste/mouse writes. */
  writes: number;
  takenAt: string;
  releasedAt: string;
  firstInputAt: string | null;
  lastInputAt: string | null;
}

interface Lease {
  holder: object;
  takenAt: Date;
  bytes: number;
  writes: number;
  firstInputAt: Date | null;
  lastInputAt: Date | null;
}

export class TakeoverRegistry {
  private readonly leases = new Map<Session, Lease>();
  private readonly notices = new Map<string, HumanInputNotice>();

  holder(session: Session): object | undefined {
    return this.leases.get(session)?.holder;
  }

  /** Give `holder` control of the session. False when someone else holds it. */
  take(session: Session, holder: object): boolean {
    const lease = this.leases.get(session);
    if (lease) return lease.holder === holder;
    if (!session.running) return false;
    const takenAt = new Date();
    this.leases.set(session, { holder, takenAt, bytes: 0, writes: 0, firstInputAt: null, lastInputAt: null });
    session.inputGate = () => {
      throw new TuiError(
        "HUMAN_IN_CONTROL",
        `A human took control of session ${session.id} in the web viewer at ` +
          `${takenAt.toISOString()}; agent input and resizes are refused until they release it.`,
        "Keep reading (snapshot, get_text, wait_for_text, wait_for_idle) or wait; input " +
          "works again once they click Release or close the viewer tab. Your next result " +
          "will say what they typed.",
      );
    };
    const off = session.onExit(() => {
      off();
      this.release(session, holder);
    });
    log(`web viewer: a human took control of ${session.id}`);
    return true;
  }

  /** The holder's keys, paste or mouse bytes, written past the gate. */
  input(session: Session, holder: object, bytes: Uint8Array): boolean {
    const lease = this.leases.get(session);
    if (lease?.holder !== holder || !session.running) return false;
    session.write(bytes, "human");
    const now = new Date();
    lease.bytes += bytes.length;
    lease.writes++;
    lease.firstInputAt ??= now;
    lease.lastInputAt = now;
    return true;
  }

  release(session: Session, holder: object): boolean {
    const lease = this.leases.get(session);
    if (lease?.holder !== holder) return false;
    this.leases.delete(session);
    session.inputGate = undefined;
    if (lease.bytes > 0) {
      const previous = this.notices.get(session.id);
      this.notices.set(session.id, {
        bytes: lease.bytes + (previous?.bytes ?? 0),
        writes: lease.writes + (previous?.writes ?? 0),
        takenAt: previous?.takenAt ?? lease.takenAt.toISOString(),
        releasedAt: new Date().toISOString(),
        firstInputAt: previous?.firstInputAt ?? lease.firstInputAt?.toISOString() ?? null,
        lastInputAt: lease.lastInputAt?.toISOString() ?? null,
      });
    }
    log(`web viewer: control of ${session.id} handed back (${lease.bytes} bytes typed)`);
    return true;
  }

  /** Release everything `holder` holds (its tab closed). */
  releaseAll(holder: object): void {
    for (const [session, lease] of [...this.leases]) if (lease.holder === holder) this.release(session, holder);
  }

  /** The pending notice for a session, removed once read. */
  takeNotice(sessionId: string): HumanInputNotice | undefined {
    const notice = this.notices.get(sessionId);
    this.notices.delete(sessionId);
    return notice;
  }
}
