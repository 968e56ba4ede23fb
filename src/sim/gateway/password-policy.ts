/**
 * The simulator's password strength rules for the gateway (`check_password`, `register`,
 * `change_password`); documented in docs/decisions.md. A password must: be 12 to 128 characters; use at
 * least three of lower case, upper case, digits and symbols; not contain the username; not be a
 * well-known password; not repeat one character more than 3 times in a row.
 */

const COMMON = new Set([
  'password',
  'password1',
  'password123',
  'passw0rd',
  '123456789012',
  'qwertyuiop12',
  'letmein12345',
  'welcome12345',
  'administrator',
  'iloveyou1234',
  'trustno1trustno1',
  'changeme1234',
]);

export interface PasswordCheck {
  valid: boolean;
  /** One message per broken rule, each saying what to change. */
  messages: string[];
}

export function checkPassword(password: string, username = ''): PasswordCheck {
  const messages: string[] = [];
  if (password.length < 12) messages.push('use at least 12 characters');
  if (password.length > 128) messages.push('use at most 128 characters');
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  if (classes < 3) messages.push('mix at least three of: lower case, upper case, digits, symbols');
  if (username !== '' && password.toLowerCase().includes(username.toLowerCase())) messages.push('do not include the username');
  if (COMMON.has(password.toLowerCase())) messages.push('this password is too common');
  if (/(.)\1{3,}/.test(password)) messages.push('do not repeat a character more than 3 times in a row');
  return { valid: messages.length === 0, messages };
}
