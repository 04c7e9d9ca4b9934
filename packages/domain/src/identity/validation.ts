/** Text, @, text, dot, text, with no spaces anywhere (spec section 5, Login). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const LOGIN_MESSAGES = {
  emailRequired: 'Please enter your email',
  emailInvalid: 'Please enter a valid email format',
  passwordRequired: 'Please enter your password',
} as const;

/**
 * First failing login rule in the spec's order (email empty, email format, password empty),
 * or null when the form may be submitted.
 */
export function validateLoginForm(email: string, password: string): string | null {
  if (email.trim() === '') return LOGIN_MESSAGES.emailRequired;
  if (!EMAIL_PATTERN.test(email.trim())) return LOGIN_MESSAGES.emailInvalid;
  if (password === '') return LOGIN_MESSAGES.passwordRequired;
  return null;
}

export const PROFILE_MESSAGES = {
  nicknameRequired: 'Please enter a nickname',
  emailInvalid: 'Please enter a valid email format',
} as const;

export type ProfileForm = { nick_name: string; email: string; phone: string };

/** Profile edit form rules: nickname required, email valid when given, phone free. */
export function validateProfileForm(form: ProfileForm): Partial<Record<keyof ProfileForm, string>> {
  const errors: Partial<Record<keyof ProfileForm, string>> = {};
  if (form.nick_name.trim() === '') errors.nick_name = PROFILE_MESSAGES.nicknameRequired;
  if (form.email.trim() !== '' && !EMAIL_PATTERN.test(form.email.trim())) {
    errors.email = PROFILE_MESSAGES.emailInvalid;
  }
  return errors;
}
