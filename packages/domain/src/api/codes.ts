/** Response code of a successful trading or API call (`{ code: 0 }`). */
export const CODE_OK = 0;
/** Session, user header or trader token invalid: the client logs out (spec section 8). */
export const CODE_AUTH_FAILED = 50002;
/** The request body or query failed validation. */
export const CODE_BAD_REQUEST = 40000;
/** The thing asked for does not exist. */
export const CODE_NOT_FOUND = 40400;
/** Too many attempts; try again later. */
export const CODE_RATE_LIMITED = 42900;
/** An unexpected failure; details are logged on the server, never returned. */
export const CODE_INTERNAL = 50000;

/** The message every 50002 answer carries and the client shows. */
export const MSG_TOKEN_INVALID = 'Token验证失败';

/** Channel and device values of trading calls (spec section 9). */
export const CHANNEL_DEFAULT = 1;
export const DEVICE_DEFAULT = 1;
/** Device value of the instrument list call. */
export const DEVICE_SYMBOL_LIST = 2;
