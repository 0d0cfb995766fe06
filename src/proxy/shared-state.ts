/**
 * The team proxy's link to the Redis its replicas share (--shared-state), loaded only then; it
 * reconnects by itself. While Redis is down every command fails at once (SharedStateDownError): a
 * miss is refused, never sent uncounted. The outage is logged once a minute at most, never the password.
 */
import type { Redis } from 'ioredis';
import { PROXY_NOTICE_MS, SHARED_STATE_COMMAND_MS, SHARED_STATE_RECONNECT_MAX_MS, SHARED_STATE_RECONNECT_STEP_MS } from '../config/time-limits.js';
import { urlCredentials } from '../util/url-policy.js';
import { loadIoredis } from '../vendor/load.js';

/** The shared state cannot be used now: a miss answers 503 (answers.ts). */
export class SharedStateDownError extends Error {
  readonly code = 'shared_state_unavailable';
}

/** `redis://user:secret@host:6379/0` as it may be shown: without user or password. */
export function shownUrl(url: string): string {
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  return shown.href;
}

export class SharedState {
  /** Connected and ready: commands may be sent. */
  up = false;
  private saidDownAt = -Infinity;
  private saidDown = false;
  /** Run on each (re)connection before commands are let through (the ledger's counts put back, shared-ledger.ts). */
  readonly onReady: Array<(redis: Redis) => Promise<unknown>> = [];

  private constructor(
    private readonly redis: Redis,
    /** The URL without its password, for the log, /-/status and errors. */
    readonly shown: string,
    private readonly secrets: readonly string[],
    private readonly warn: (line: string) => void,
  ) {}

  /** Connects to `url`; a Redis that is down at start is no error: misses are refused until it answers. */
  static async open(url: string, warn: (line: string) => void = () => {}): Promise<SharedState> {
    const Redis = await loadIoredis();
    const parsed = new URL(url);
    const decoded = urlCredentials(parsed, '--shared-state', 'the URL');
    const secrets = [parsed.password, decoded.password, parsed.username, decoded.username].filter((s) => s.length >= 3);
    const redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      commandTimeout: SHARED_STATE_COMMAND_MS,
      connectTimeout: SHARED_STATE_COMMAND_MS,
      retryStrategy: (times: number) => Math.min(times * SHARED_STATE_RECONNECT_STEP_MS, SHARED_STATE_RECONNECT_MAX_MS),
    });
    const state = new SharedState(redis, shownUrl(url), secrets, warn);
    redis.on('ready', () => void state.ready());
    redis.on('close', () => (state.up = false));
    redis.on('error', (err: Error) => state.problem(err));
    await redis.connect().catch((err: Error) => state.problem(err));
    return state;
  }

  private async ready(): Promise<void> {
    for (const task of this.onReady) await task(this.redis).catch(() => {});
    // The link may have closed again while the counts were put back.
    this.up = this.redis.status === 'ready';
    if (!this.up) return;
    if (this.saidDown) this.warn(`proxy: the shared state ${this.shown} is back.`);
    this.saidDown = false;
  }

  /** Says the outage (at most once a minute), without the password. */
  private problem(err: Error): void {
    const now = Date.now();
    if (now - this.saidDownAt < PROXY_NOTICE_MS) return;
    this.saidDownAt = now;
    this.saidDown = true;
    this.warn(
      `proxy: the shared state ${this.shown} cannot be used (${this.redact(err.message)}); misses answer 503 until it is back (said at most once a minute).`,
    );
  }

  private redact(text: string): string {
    return this.secrets.reduce((out, secret) => out.split(secret).join('***'), text);
  }

  /** `work` on the connection; any failure (down, no answer in time, an error reply) is SharedStateDownError. */
  async command<T>(work: (redis: Redis) => Promise<T>): Promise<T> {
    if (!this.up) throw new SharedStateDownError(`The shared state ${this.shown} is unavailable.`);
    try {
      return await work(this.redis);
    } catch (err) {
      this.problem(err as Error);
      throw new SharedStateDownError(`The shared state ${this.shown} failed: ${this.redact((err as Error).message)}`);
    }
  }

  close(): void {
    this.redis.disconnect();
  }
}
