import { z } from 'zod';
import { isValidBusinessId } from '../business-id.js';
import { optionSchema } from './masters/common.js';
import { idSchema, named, text } from './primitives.js';

/**
 * Password policy of spec §5: at least six characters with an upper-case letter, a lower-case
 * letter, a number and a special character. The reset form asks for the same (its rule is a
 * subset). Each rule has a key so that forms can list what is missing.
 */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_RULES = [
  { key: 'minLength', test: (s: string) => s.length >= PASSWORD_MIN_LENGTH },
  { key: 'upper', test: (s: string) => /[A-ZÅÄÖ]/.test(s) },
  { key: 'lower', test: (s: string) => /[a-zåäö]/.test(s) },
  { key: 'number', test: (s: string) => /\d/.test(s) },
  { key: 'special', test: (s: string) => /[^A-Za-z0-9ÅÄÖåäö\s]/.test(s) },
] as const;
export type PasswordRuleKey = (typeof PASSWORD_RULES)[number]['key'];

export const passwordFailures = (s: string): PasswordRuleKey[] =>
  PASSWORD_RULES.filter((r) => !r.test(s)).map((r) => r.key);

export const passwordSchema = text({ max: 128, trim: false }).refine(
  (s) => passwordFailures(s).length === 0,
  { message: 'invalid' },
);

export const emailSchema = text({ max: 254 }).toLowerCase().email();

/**
 * What a list of user accounts (a client's users, the provider's users) sorts by: the name and the
 * email first, then the list's `own` keys, then when the account was created and last signed in.
 */
export const userSortable = <const K extends readonly string[]>(...own: K) =>
  ['name', 'email', ...own, 'createdAt', 'lastLoginAt'] as const;

/** Finnish and international phone numbers: digits with an optional leading +, 6–15 digits. */
export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{6,20}$/)
  .refine((s) => {
    const d = s.replace(/\D/g, '');
    return d.length >= 6 && d.length <= 15;
  });

/** Profile contact number: 8–10 digits (spec §5, §9). */
export const profilePhoneSchema = z
  .string()
  .trim()
  .regex(/^\d{8,10}$/);

/** Finnish business id (Y-tunnus), e.g. 1234567-8, with its check digit. */
export const businessIdSchema = z.string().trim().refine(isValidBusinessId);

export const tokenRequestSchema = z.object({
  grant_type: text({ max: 50 }),
  username: text({ max: 254, trim: false }).default(''),
  password: text({ max: 256, trim: false }).default(''),
  /** The operator the session's client data is limited to; omitted: all operators (docs/decisions/0018). */
  OperatorId: idSchema.optional(),
});

export const loginSchema = z.object({
  email: text({ max: 254, trim: false }),
  password: text({ max: 256, trim: false }),
  operatorId: idSchema.optional(),
});
export type LoginRequest = z.infer<typeof loginSchema>;

export const signupSchema = z.object({
  type: z.enum(['company', 'consultant']),
  companyName: text({ min: 2, max: 200 }),
  businessId: businessIdSchema,
  fullName: text({ min: 2, max: 200 }),
  email: emailSchema,
  contactNumber: profilePhoneSchema,
  address: text({ max: 500, multiline: true }).optional().default(''),
  password: passwordSchema,
  languageID: z
    .union([z.literal(1), z.literal(2)])
    .optional()
    .default(1),
});
export type SignupRequest = z.infer<typeof signupSchema>;

export const resetPasswordSchema = z
  .object({
    token: text({ min: 10, max: 200 }),
    password: passwordSchema,
    confirmPassword: text({ max: 256, trim: false }),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'mismatch' });
export type ResetPasswordRequest = z.infer<typeof resetPasswordSchema>;

/** Whether a reset link is still open, asked by the reset page on opening (the token in the body). */
export const resetLinkStatusSchema = z.strictObject({ token: text({ min: 10, max: 200 }) });
export const resetLinkStatusResponseSchema = z.object({ open: z.boolean() });
export type ResetLinkStatus = z.infer<typeof resetLinkStatusResponseSchema>;

/** Customer user activation sets the first password with the same rules. */
export const activateSchema = resetPasswordSchema;

export const changePasswordSchema = z
  .object({
    oldPassword: text({ min: 1, max: 256, trim: false }),
    newPassword: passwordSchema,
    confirmPassword: text({ max: 256, trim: false }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'mismatch' });
export type ChangePasswordRequest = z.infer<typeof changePasswordSchema>;

/** Session details of spec §3, with the spec's field names (including `acessPermissions`). */
export const clientInfoSchema = z.object({
  fullName: z.string(),
  emailID: z.string(),
  roleID: z.number().int(),
  languageID: z.number().int(),
  logo: z.string().nullable(),
  applicationThemeID: z.number().int(),
  basePath: z.string(),
  acessPermissions: z.array(z.string()),
  loggedInOperatorName: z.string().nullable(),
  loggedInOperatorID: z.number().int().nullable(),
  /** Beyond the spec: what the shell needs to decide on the menu and the header. */
  clientId: z.number().int().nullable(),
  companyName: z.string().nullable(),
  menuDisabled: z.boolean(),
  operators: z.array(optionSchema),
});
export type ClientInfo = z.infer<typeof clientInfoSchema>;

export const tokenResponseSchema = clientInfoSchema.extend({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** Changing one's password revokes older tokens, so the answer carries a new session. */
export const changePasswordResponseSchema = tokenResponseSchema.extend({ message: z.string() });
export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;

export const operatorOptionSchema = optionSchema;
export type OperatorOption = z.infer<typeof operatorOptionSchema>;

/**
 * How a user gets the alert digest mail (decision 0026; here, not in alerts.ts: the profile reads it), chosen in the profile: one mail after each
 * evaluation that raised alerts they see, one mail a day (the alerts-daily run), or none.
 */
export const ALERT_DIGESTS = ['immediate', 'daily', 'off'] as const;
export type AlertDigest = (typeof ALERT_DIGESTS)[number];
export const alertDigestSchema = z.enum(ALERT_DIGESTS);

export const ALERT_DIGEST_LABELS: Record<AlertDigest, { en: string; fi: string }> = {
  immediate: { en: 'Immediately', fi: 'Välittömästi' },
  daily: { en: 'Daily', fi: 'Päivittäin' },
  off: { en: 'Never', fi: 'Ei koskaan' },
};

export const profileSchema = z.object({
  fullName: z.string(),
  email: z.string(),
  contactNumber: z.string().nullable(),
  address: z.string().nullable(),
  roleID: z.number().int(),
  languageID: z.number().int(),
  applicationThemeID: z.number().int(),
  /** The alert digest mail (decision 0026); sent only to holders of the `alerts` permission. */
  alertDigest: alertDigestSchema,
  logo: z.string().nullable(),
  company: z
    .object({
      id: z.number().int(),
      name: z.string(),
      businessId: z.string(),
      address: z.string().nullable(),
      profileStatus: z.string(),
    })
    .nullable(),
  operatorContracts: z.array(
    z.object({
      ...named('operator'),
      salesContactName: z.string().nullable(),
      contractStartDate: z.string().nullable(),
      contractEndDate: z.string().nullable(),
      uploadInvoiceReminder: z.boolean(),
    }),
  ),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileUpdateSchema = z.object({
  fullName: text({ min: 2, max: 200 }),
  contactNumber: profilePhoneSchema.or(z.literal('')).optional(),
  address: text({ max: 500, multiline: true }).optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** At least one of them: an empty body is refused (400), not sent on as an empty update. */
export const settingsUpdateSchema = z
  .object({
    languageID: z.union([z.literal(1), z.literal(2)]).optional(),
    applicationThemeID: z.number().int().min(1).max(10).optional(),
    alertDigest: alertDigestSchema.optional(),
  })
  .refine(
    (v) => v.languageID !== undefined || v.applicationThemeID !== undefined || v.alertDigest !== undefined,
    {
      path: ['languageID'],
      error: 'required',
    },
  );
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

/**
 * The operator the session's client data is limited to (issue 22): one of the caller's operators,
 * or null for all of them. It is carried in the token (docs/decisions/0018).
 */
export const switchOperatorSchema = z.object({
  operatorId: idSchema
    .nullable()
    .describe("One of the caller's operators (GetClientInfo's `operators`), or null for all operators"),
});

export const layoutSettingsSchema = z.object({
  layout: z.enum(['fluid', 'boxed']),
  aside: z.enum(['dark', 'light']),
  header: z.enum(['fixed', 'static']),
});
export type LayoutSettings = z.infer<typeof layoutSettingsSchema>;
/** Spec §9: fluid, dark left aside, fixed header. */
export const DEFAULT_LAYOUT: LayoutSettings = { layout: 'fluid', aside: 'dark', header: 'fixed' };
