// The errors of the mnemod client: one class per `error.code` of the API,
// and ConnectionFailed/Timeout for a daemon that cannot be reached or does
// not answer. Each carries how many attempts were made.

export class MnemoError extends Error {
  attempts: number;
  constructor(message: string, attempts = 1) {
    super(attempts > 1 ? `${message} (after ${attempts} attempts)` : message);
    this.name = new.target.name;
    this.attempts = attempts;
  }
}

/** The daemon could not be reached, or the connection broke before the answer. */
export class ConnectionFailed extends MnemoError {}

/** No answer within the client's timeout. */
export class Timeout extends ConnectionFailed {}

export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  requestId?: string | null;
  retryAfter?: number | null;
  attempts?: number;
}

/** An error answer of the daemon: HTTP status, `error.code`, message and details. */
export class ApiError extends MnemoError {
  status: number;
  code: string;
  details: Record<string, unknown>;
  requestId: string | null;
  /** Seconds, from the answer's Retry-After header. */
  retryAfter: number | null;
  constructor(init: ApiErrorInit) {
    const where = init.requestId ? `, request ${init.requestId}` : '';
    super(`${init.status} ${init.code}: ${init.message}${where}`, init.attempts ?? 1);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? {};
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }
}

export class InvalidArgument extends ApiError {}
export class Unauthenticated extends ApiError {}
export class PermissionDenied extends ApiError {}
export class NotFound extends ApiError {}
export class MethodNotAllowed extends ApiError {}
export class RequestTimeout extends ApiError {}
export class AlreadyExists extends ApiError {}
/** `expected_version` did not match; `currentVersion` is the session's version now. */
export class Conflict extends ApiError {
  get currentVersion(): number | null {
    const v = this.details['current_version'];
    return typeof v === 'number' ? v : null;
  }
}
export class PayloadTooLarge extends ApiError {}
/** A Lua hook refused the write; the message is the hook's. */
export class Rejected extends ApiError {}
export class Overloaded extends ApiError {}
export class HeadersTooLarge extends ApiError {}
export class Internal extends ApiError {}
export class Unavailable extends ApiError {}
export class HttpVersionNotSupported extends ApiError {}

const BY_CODE: Record<string, new (init: ApiErrorInit) => ApiError> = {
  invalid_argument: InvalidArgument,
  unauthenticated: Unauthenticated,
  permission_denied: PermissionDenied,
  not_found: NotFound,
  method_not_allowed: MethodNotAllowed,
  request_timeout: RequestTimeout,
  already_exists: AlreadyExists,
  conflict: Conflict,
  payload_too_large: PayloadTooLarge,
  rejected: Rejected,
  overloaded: Overloaded,
  headers_too_large: HeadersTooLarge,
  internal: Internal,
  unavailable: Unavailable,
  http_version_not_supported: HttpVersionNotSupported,
};

/** The class of an error answer by its code (ApiError itself for a code this client does not know). */
export function apiError(init: ApiErrorInit): ApiError {
  const Class = BY_CODE[init.code] ?? ApiError;
  return new Class(init);
}
