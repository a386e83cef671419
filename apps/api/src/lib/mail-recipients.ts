import { users } from '../db/schema/index.js';

/** What a mail to a user needs: the address, the name it greets and the language it is written in. */
export const MAIL_RECIPIENT = {
  email: users.email,
  fullName: users.fullName,
  languageId: users.languageId,
};
