// spec §5: the validation messages, keyed. Schemas carry the key as the issue message; the server
// answers with key and English text, the console translates the key through its catalogue.
export const validationMessages = {
  'validation.required': 'Required',
  'validation.max_length': 'Maximum input length exceeded',
  'validation.login_method': 'You must select at least one login method',
  'validation.invalid_email': 'Invalid email',
  'validation.not_a_number': 'Value not a valid number',
  'validation.out_of_range': 'Value not in the valid range',
  'validation.invalid_url': 'Invalid URL',
  'validation.invalid_uri': 'Invalid URI',
  'validation.redirect_uri_fragment': 'A redirect URI cannot contain a fragment (#)',
  'validation.redirect_uri_native_web':
    'Beside a native app redirect URI (e.g. com.example.app:/callback), use https on a domain, or http on 127.0.0.1, [::1] or localhost',
  'validation.redirect_uri_app_scheme': 'A private-use scheme (e.g. com.example.app:/callback) is for a native app',
  'validation.private_address': 'This address is on a loopback, private or link-local network, which this server does not call',
  'validation.backchannel_uri_https': 'Use an https address: only a web app may receive logout notices over http',
  'validation.invalid_phone': 'Invalid phone number',
  'validation.at_least_one_permission': 'Select at least one permission',
  'validation.at_least_one_method': 'Select at least one method',
  'validation.invalid_value': 'Invalid value',
  'validation.invalid_characters': 'Contains characters that are not allowed (control characters or broken Unicode)',
  'validation.invalid_date': 'Invalid date',
  'validation.date_order': 'The end date must not be before the start date',
  'validation.date_range_too_long': 'The date range cannot be longer than 366 days',
  'validation.usage_range_too_long': 'The date range cannot be longer than 5 years',
  'validation.service_account_key':
    'This is not a Firebase service account key file: choose the JSON file of type "service_account" with project_id, client_email and private_key',
  'validation.too_many_periods': 'Too many periods for this date range: choose a longer period type',
} as const;

export type ValidationMessageKey = keyof typeof validationMessages;

export function isValidationMessageKey(value: string): value is ValidationMessageKey {
  return Object.hasOwn(validationMessages, value);
}

/** English text of a validation key; unknown keys are returned as they are. */
export function validationText(key: string): string {
  return isValidationMessageKey(key) ? validationMessages[key] : key;
}
