/** One notification on a phone's screen, as the contract shows it. */
export interface ShownNotification {
  replace_id: string | null;
  title: string;
  body: string;
}

/** One push as the phone receives it. */
export interface Delivery {
  replaceId?: string;
  title: string;
  body: string;
}

/**
 * A phone's notification screen: a push with the collapse id (APNs `apns-collapse-id`, FCM `tag`) of one
 * already shown replaces it and moves to the top; any other push stacks. Every push raises an alert.
 */
export class DeviceScreen {
  private readonly shown: ShownNotification[] = [];
  private readonly firstShownAt: Record<string, number> = {};
  private alerts = 0;

  deliver(d: Delivery): void {
    this.alerts += 1;
    // Real time, when the phone first showed it: what a load test measures tap-to-notification against.
    if (d.replaceId && !(d.replaceId in this.firstShownAt)) this.firstShownAt[d.replaceId] = Date.now();
    const replaced = d.replaceId ? this.shown.findIndex((s) => s.replace_id === d.replaceId) : -1;
    if (replaced >= 0) this.shown.splice(replaced, 1);
    this.shown.unshift({ replace_id: d.replaceId ?? null, title: d.title, body: d.body });
  }

  /** Newest first, the number of alerts raised, and when each replace id was first shown (epoch ms). */
  view(): ScreenView {
    return {
      shown: this.shown.map((s) => ({ ...s })),
      alerts: this.alerts,
      first_shown_at: { ...this.firstShownAt },
    };
  }
}

/** What one phone's screen shows. */
export interface ScreenView {
  shown: ShownNotification[];
  alerts: number;
  first_shown_at: Record<string, number>;
}

/** Merges several devices' screens into the caller's view (one device: its screen as is). */
export function mergeScreens(views: ScreenView[]) {
  const firstShownAt: Record<string, number> = {};
  for (const v of views)
    for (const [id, at] of Object.entries(v.first_shown_at))
      firstShownAt[id] = Math.min(at, firstShownAt[id] ?? at);
  return {
    shown: views.flatMap((v) => v.shown),
    alerts: views.reduce((n, v) => n + v.alerts, 0),
    devices: views.length,
    first_shown_at: firstShownAt,
  };
}
