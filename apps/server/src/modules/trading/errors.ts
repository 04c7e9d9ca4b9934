import { CODE_CONFLICT, CODE_ORDER_REJECTED } from '@ct/domain';
import { AppError } from '../../http/errors.ts';

/*
 * Trading failures beyond the general ones of http/errors.ts (BadRequestError for a broken
 * rule, NotFoundError for an unknown symbol, order or pending order). The one error handler
 * (http/error-handler.ts) turns every AppError into the envelope `{ code, msg, data: null }`.
 */

/** The order or position is no longer in a state that allows the request (HTTP 409). */
export class ConflictError extends AppError {
  constructor(message: string) {
    super(CODE_CONFLICT, message, 409);
  }
}

/** The venue refused an order: market closed, no quote, not enough margin (HTTP 422). */
export class OrderRejectedError extends AppError {
  constructor(message: string) {
    super(CODE_ORDER_REJECTED, message, 422);
  }
}
