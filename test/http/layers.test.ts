/**
 * The transport's layers (src/http/exchange.ts) one by one, each over a fake Exchange below it:
 * what each adds around the request, and what it leaves alone. No network: the layers only
 * ever see the small interface.
 */
import { describe, expect, it } from 'vitest';
import { BudgetExceededError, MalformedResponseError, NetworkError } from '../../src/errors.js';
import type { DispatchedBody, Exchange, Incoming, Outgoing } from '../../src/http/exchange.js';
import { counting } from '../../src/http/counting.js';
import { CommandDeadline, isCommandDeadline } from '../../src/config/time-limits.js';
import { wholeBodies } from '../../src/http/body.js';
import { Transport, retrying } from '../../src/http/transport.js';
import type { Dispatcher } from 'undici';
import { ERROR_BODY_CAP, JSON_SIZE_CAP } from '../../src/defaults.js';

const SPENT = { month: '2026-11', requests: 6, budget: 6, origin: 'http://127.0.0.1:1' };

const request = (what = 'GET /x'): Outgoing => ({ url: new URL('http://127.0.0.1:1/x'), headers: {}, what, signals: [] });

/** A body that hands over `chunks` once started, then ends; `discarded` says whether it was let go. */
function fakeBody(chunks: Buffer[] = []): DispatchedBody & { discarded: boolean } {
  const body = {
    discarded: false,
    start(consumer: Parameters<DispatchedBody['start']>[0]) {
      queueMicrotask(() => {
        for (const chunk of chunks) if (!body.discarded) consumer.onData(chunk);
        if (!body.discarded) consumer.onEnd();
      });
      return { resume: () => {}, destroy: () => body.discard() };
    },
    discard() {
      body.discarded = true;
    },
    onClose(callback: () => void) {
      callback();
    },
  };
  return body;
}

function answer<B>(status: number, body: B, headers: Record<string, string> = {}): Incoming<B> {
  return { status, headers, body };
}

/** An Exchange below the layer under test that answers 200 and counts the attempts it saw. */
function answering(): { next: Exchange; calls: () => number } {
  let calls = 0;
  return {
    next: async () => {
      calls += 1;
      return answer(200, fakeBody());
    },
    calls: () => calls,
  };
}

describe('counting', () => {
  it('lets go of the body and fails with the hook’s error when afterResponse throws', async () => {
    const body = fakeBody();
    const refused = new BudgetExceededError(SPENT);
    const counted = counting(async () => answer(200, body), {
      afterResponse: () => {
        throw refused;
      },
    });
    await expect(counted(request())).rejects.toBe(refused);
    expect(body.discarded).toBe(true);
  });

  it('sends nothing when beforeRequest refuses', async () => {
    const below = answering();
    const counted = counting(below.next, {
      beforeRequest: () => {
        throw new BudgetExceededError(SPENT);
      },
    });
    await expect(counted(request())).rejects.toBeInstanceOf(BudgetExceededError);
    expect(below.calls()).toBe(0);
  });
});

describe('the command deadline', () => {
  it('refuses an attempt once it has run out: nothing is sent, and its count is given back', async () => {
    let dispatched = 0;
    let counted = 0;
    const t = new Transport({
      baseUrl: 'http://127.0.0.1:9',
      settings: { timeout: 1_000, retries: 3 },
      commandDeadline: new CommandDeadline(0, '--deadline'),
      dispatcher: { dispatch: () => void (dispatched += 1) } as unknown as Dispatcher,
      beforeRequest: () => {
        counted += 1;
        return () => void (counted -= 1);
      },
    });
    const err = await t.getJson('/exercise/Late', undefined, 'GET /late').catch((e: unknown) => e);
    expect(isCommandDeadline(err)).toBe(true);
    expect((err as Error).message).toContain('GET /late');
    expect(dispatched).toBe(0);
    expect(counted).toBe(0);
  });
});

describe('wholeBodies', () => {
  it('cuts an error body at its cap and lets the status decide', async () => {
    const body = fakeBody([Buffer.alloc(ERROR_BODY_CAP + 10, 'e')]);
    const read = await wholeBodies(
      async () => answer(503, body),
      (t) => t,
    )(request());
    expect(read.status).toBe(503);
    expect(read.body.length).toBe(ERROR_BODY_CAP);
    expect(body.discarded).toBe(true);
  });

  it('refuses an answer larger than the JSON cap', async () => {
    const body = fakeBody([Buffer.alloc(JSON_SIZE_CAP + 1, ' ')]);
    await expect(
      wholeBodies(
        async () => answer(200, body),
        (t) => t,
      )(request()),
    ).rejects.toBeInstanceOf(MalformedResponseError);
  });
});

describe('retrying', () => {
  const unavailable = (): Incoming<Buffer> =>
    answer(503, Buffer.from(JSON.stringify({ error: { code: 'busy', message: 'try later' } })), { 'retry-after': '0' });

  it('sends again after a retryable status, logging each attempt by number', async () => {
    const answers = [unavailable(), answer(200, Buffer.from('{}'))];
    const lines: string[] = [];
    const retried = retrying(async () => answers.shift()!, { retries: 2, log: (l) => lines.push(l), redact: (t) => t });
    expect((await retried(request())).status).toBe(200);
    expect(lines.filter((l) => /\(attempt \d\/3\)/.test(l))).toHaveLength(2);
    expect(lines).toContain('retrying in 0 ms');
  });

  it('ends with the status’s error, quoting the service, when the retries are spent', async () => {
    let attempts = 0;
    const retried = retrying(
      async () => {
        attempts += 1;
        return unavailable();
      },
      { retries: 1, redact: (t) => t },
    );
    const err = await retried(request()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toContain('try later');
    expect(attempts).toBe(2);
  });

  it('passes any other answer up untouched, after one attempt', async () => {
    let attempts = 0;
    const notFound = answer(404, Buffer.from('{}'));
    const retried = retrying(
      async () => {
        attempts += 1;
        return notFound;
      },
      { retries: 3, redact: (t) => t },
    );
    expect(await retried(request())).toBe(notFound);
    expect(attempts).toBe(1);
  });

  it('never retries past the command’s deadline', async () => {
    const deadline = new CommandDeadline(0, '--deadline');
    let attempts = 0;
    const next: Exchange<Buffer> = async () => {
      attempts += 1;
      return { ...unavailable(), headers: { 'retry-after': '5' } };
    };
    const err = await retrying(next, { retries: 3, command: deadline, redact: (t) => t })(request()).catch((e: unknown) => e);
    expect(isCommandDeadline(err)).toBe(true);
    expect((err as Error).message).toContain('Retry-After');
    expect(attempts).toBe(1);
  });
});
