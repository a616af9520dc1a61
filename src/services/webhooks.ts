/**
 * The site's webhook hub as the webhooks routes and API drive it: the settings a subscription is checked
 * against and the delivery loop. `createCms` makes it (`WebhookHub`, src/webhooks/hub.ts), with the outbox
 * around the store and the loop attached to the site.
 */
export interface WebhookService {
  readonly settings: {
    /** `host:port` pairs a subscription may target although they are private. */
    readonly allowedPrivate: ReadonlySet<string>;
    /** How long after its event a delivery is still tried, in milliseconds. */
    readonly retry: { readonly maxAgeMs: number };
  };
  /** Starts the delivery loop (idempotent). */
  start(): void;
  stop(): Promise<void>;
  /** One pass of the loop, waiting for its attempts: what is due now is tried once; resolves to how many were. */
  runDue(): Promise<number>;
}
