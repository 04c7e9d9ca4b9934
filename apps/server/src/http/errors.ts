import {
  CODE_AUTH_FAILED,
  CODE_BAD_REQUEST,
  CODE_NOT_FOUND,
  CODE_RATE_LIMITED,
  MSG_TOKEN_INVALID,
} from '@ct/domain';

/**
 * An expected failure with the code and message the client sees. The error handler turns
 * it into the response shape of the route's family (http/error-handler.ts).
 */
export class AppError extends Error {
  constructor(
    /** The `code` (or login `status`) of the answer. */
    readonly code: number,
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Malformed or invalid input; the message names the field at fault. */
export class BadRequestError extends AppError {
  constructor(message: string) {
    super(CODE_BAD_REQUEST, message, 400);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(CODE_NOT_FOUND, message, 404);
  }
}

/** Session, user header or trader token invalid: always the same answer, whatever failed. */
export class AuthFailedError extends AppError {
  constructor() {
    super(CODE_AUTH_FAILED, MSG_TOKEN_INVALID, 401);
  }
}

export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(CODE_RATE_LIMITED, message, 429);
  }
}

/** Login status of a wrong email or password (spec section 8 reads `status` != 0). */
export const STATUS_BAD_CREDENTIALS = 1;

/**
 * Wrong email or password. HTTP 200 on purpose: the login client reads `status` and `msg`
 * from the body, and a 401 would be mistaken for an expired session.
 */
export class InvalidCredentialsError extends AppError {
  constructor() {
    super(STATUS_BAD_CREDENTIALS, 'Incorrect username or password', 200);
  }
}

/** A request body over the route's limit (HTTP 413). */
export const CODE_BODY_TOO_LARGE = 41300;
export const BODY_TOO_LARGE_MESSAGE = 'Request body is too large';

/** The only message an unexpected failure shows; the details go to the log. */
export const INTERNAL_ERROR_MESSAGE = 'Internal server error';
