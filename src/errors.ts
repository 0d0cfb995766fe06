/** The error classes and the exit-code table, the one source of truth: every layer throws these, only the CLI prints them. Imports nothing. */

/** Every exit code with its name and meaning, as `--help` and the README give it. */
export const EXIT_CODE_TABLE = [
  { name: 'OK', code: 0, meaning: 'success' },
  { name: 'UNEXPECTED', code: 1, meaning: 'unexpected error (a bug: please report it)' },
  { name: 'USAGE', code: 2, meaning: 'usage error: bad flag, argument or enum value' },
  { name: 'AUTH', code: 3, meaning: 'authentication: no key, key rejected (401) or plan does not allow it (403)' },
  { name: 'NOT_FOUND', code: 4, meaning: 'not found (404)' },
  { name: 'RATE_LIMITED', code: 5, meaning: 'rate limited (429) after retries, or the monthly request budget reached' },
  { name: 'NETWORK', code: 6, meaning: 'network error, timeout, server error or malformed response' },
  { name: 'PARTIAL_FAILURE', code: 7, meaning: 'bulk command finished but some items failed' },
  { name: 'INTERRUPTED', code: 130, meaning: 'interrupted (Ctrl-C)' },
] as const;

type ExitCodeRow = (typeof EXIT_CODE_TABLE)[number];
export type ExitCodeValue = ExitCodeRow['code'];
export const ExitCode = Object.fromEntries(EXIT_CODE_TABLE.map((e) => [e.name, e.code])) as { readonly [E in ExitCodeRow as E['name']]: E['code'] };

/** Machine-readable error codes, in `{"error":{"code":...}}`. */
export type ErrorCode =
  | 'usage'
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'budget_exceeded'
  | 'budget_unchecked'
  | 'cache_dir'
  | 'network'
  | 'timeout'
  | 'server_error'
  | 'malformed_response'
  | 'write_failed'
  | 'browser'
  | 'partial_failure'
  | 'interrupted'
  | 'unexpected';

export interface CliErrorOptions {
  /** What the user can do next. */
  hint?: string;
  cause?: unknown;
  details?: Record<string, unknown>;
}

/** Base class: a message meant for a person, an exit code and an optional hint. */
export class CliError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly code: ErrorCode;
  readonly hint?: string;
  readonly details?: Record<string, unknown>;

  constructor(message: string, exitCode: ExitCodeValue, code: ErrorCode, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.code = code;
    this.hint = options.hint;
    this.details = options.details;
  }
}

export class UsageError extends CliError {
  constructor(message: string, options?: CliErrorOptions) {
    super(message, ExitCode.USAGE, 'usage', options);
  }
}

/** No key, key rejected (401), or the plan does not include the resource (403). */
export class AuthError extends CliError {
  constructor(message: string, options?: CliErrorOptions & { forbidden?: boolean }) {
    super(message, ExitCode.AUTH, options?.forbidden ? 'forbidden' : 'auth', options);
  }
}

export class NotFoundError extends CliError {
  constructor(message: string, options?: CliErrorOptions) {
    super(message, ExitCode.NOT_FOUND, 'not_found', options);
  }
}

export class RateLimitError extends CliError {
  constructor(message: string, options?: CliErrorOptions) {
    super(message, ExitCode.RATE_LIMITED, 'rate_limited', options);
  }
}

/** The month's request budget is spent: raised before the request, so nothing was sent; exit 5, as a 429 (try again later). */
export class BudgetExceededError extends CliError {
  readonly month: string;
  readonly requests: number;
  readonly budget: number;
  /** Where the requests were counted. */
  readonly origin: string;

  constructor(usage: { month: string; requests: number; budget: number; origin: string }, options: CliErrorOptions = {}) {
    super(
      `The request budget for ${usage.month} is spent: ${usage.requests} of ${usage.budget} requests already sent to ${usage.origin}, so this one was not sent.`,
      ExitCode.RATE_LIMITED,
      'budget_exceeded',
      {
        hint: 'Raise it for this run with --budget <n>, or for good with `exercises config set budget <n>`; answers already cached still work (--offline).',
        ...options,
        details: { month: usage.month, requests: usage.requests, budget: usage.budget, origin: usage.origin, ...options.details },
      },
    );
    this.month = usage.month;
    this.requests = usage.requests;
    this.budget = usage.budget;
    this.origin = usage.origin;
  }
}

/** A budget is in force but the ledger cannot be used, so the request cannot be counted: it is not sent. Exit 5. */
export class BudgetUncheckedError extends CliError {
  readonly path: string;

  constructor(path: string, reason: string, options: CliErrorOptions = {}) {
    super(`The request budget cannot be checked: ${reason} (the request ledger ${path}), so no request was sent.`, ExitCode.RATE_LIMITED, 'budget_unchecked', {
      hint: "Make the cache directory writable or remove a stale lock beside the ledger; `exercises quota --reset-month` starts the month's count again; `exercises config unset budget` (and no --budget) sends requests without a budget.",
      ...options,
      details: { ledger: path, ...options.details },
    });
    this.path = path;
  }
}

/** Connection failures, timeouts and 5xx answers. */
export class NetworkError extends CliError {
  constructor(message: string, options?: CliErrorOptions & { kind?: 'network' | 'timeout' | 'server_error' }) {
    super(message, ExitCode.NETWORK, options?.kind ?? 'network', options);
  }
}

/** The cache directory cannot be used safely (a planted link, a loop, a file in place of a directory). Exit 6. */
export class CacheDirError extends CliError {
  constructor(message: string, options?: CliErrorOptions) {
    super(message, ExitCode.NETWORK, 'cache_dir', options);
  }
}

/** A response that arrived but cannot be trusted: not JSON, truncated, wrong shape, wrong bytes. */
export class MalformedResponseError extends CliError {
  constructor(message: string, options?: CliErrorOptions) {
    super(message, ExitCode.NETWORK, 'malformed_response', options);
  }
}

/** A file could not be written as promised; the previous file is left as it was. Exit 6. */
export class WriteFailedError extends CliError {
  readonly path: string;

  constructor(path: string, reason: string, options: CliErrorOptions = {}) {
    super(`Cannot write ${path}: ${reason}.`, ExitCode.NETWORK, 'write_failed', { ...options, details: { path, ...options.details } });
    this.path = path;
  }
}

/** A bulk command finished, but some of its items failed. */
export class PartialFailureError extends CliError {
  constructor(message: string, options?: CliErrorOptions) {
    super(message, ExitCode.PARTIAL_FAILURE, 'partial_failure', options);
  }
}

export class InterruptedError extends CliError {
  constructor(message = 'Interrupted.', options?: CliErrorOptions) {
    super(message, ExitCode.INTERRUPTED, 'interrupted', options);
  }
}

/** The person left a prompt (Esc, Ctrl-C): exit 130, nothing printed. */
export class PromptCancelledError extends InterruptedError {
  constructor() {
    super('Cancelled.');
  }
}
