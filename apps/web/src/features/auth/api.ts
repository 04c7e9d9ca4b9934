import { CHANNEL_DEFAULT, DEVICE_DEFAULT, loginResponseSchema } from '@ct/domain';
import type { LoginRequest } from '@ct/domain';
import { http } from '../../api/client';

export const LOGIN_PATH = '/user/api/v1/account/login';
export const LOGOUT_PATH = '/user/api/v1/account/logout';

/** Login type 2 is email and password (spec section 7). */
const LOGIN_TYPE_EMAIL = 2;

export function loginRequest(email: string, password: string) {
  const body: LoginRequest = {
    channel: CHANNEL_DEFAULT,
    login_type: LOGIN_TYPE_EMAIL,
    user_name: email,
    password,
    device: DEVICE_DEFAULT,
  };
  return http.post(LOGIN_PATH, body, { schema: loginResponseSchema });
}

export function logoutRequest() {
  return http.post(LOGOUT_PATH);
}
