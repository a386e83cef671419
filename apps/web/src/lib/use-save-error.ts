import { App, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from './api-client';
import { applyFieldErrors, errorText } from './form-rules';

/**
 * What a form shows when its save fails: the API's validation issues (a 400's `fields`) on the
 * form's fields named in `labels`, an API code of `codeFields` (e.g. a rule about one date) on its
 * field in the user's language, anything else as a message. Apart from `form-rules` (the login
 * bundle's), as antd's message comes with it.
 */
export function useSaveError(
  form: FormInstance,
  labels: Record<string, string>,
  codeFields: Readonly<Record<string, string>> = {},
): (err: unknown) => void {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (err) => {
    const field =
      err instanceof ApiRequestError && Object.hasOwn(codeFields, err.code)
        ? codeFields[err.code]
        : undefined;
    if (field) form.setFields([{ name: field, errors: [errorText(t, err)] }]);
    else if (!applyFieldErrors(form, err, t, labels)) void message.error(errorText(t, err));
  };
}
