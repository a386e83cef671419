import type { Reason } from './types.js';

export type ReasonLanguage = 'en' | 'fi';

const decimal = (value: number, digits: number, lang: ReasonLanguage) => {
  const s = value.toFixed(digits);
  return lang === 'fi' ? s.replace('.', ',') : s;
};
const euros = (cents: number, lang: ReasonLanguage) =>
  lang === 'fi' ? `${decimal(cents / 100, 2, lang)} €` : `€${decimal(cents / 100, 2, lang)}`;
/** Gigabytes: GB in English, Gt (gigatavu) in Finnish. */
const gb = (value: number, lang: ReasonLanguage) =>
  `${decimal(value, 1, lang)} ${lang === 'fi' ? 'Gt' : 'GB'}`;
const months = (n: number, lang: ReasonLanguage) =>
  lang === 'fi' ? `${n} kuukauteen` : `${n} month${n === 1 ? '' : 's'}`;

/** The reason in words, in English or Finnish (terms from the project glossary). */
export function renderReason(reason: Reason, lang: ReasonLanguage = 'en'): string {
  const p = reason.params;
  const fi = lang === 'fi';
  switch (reason.code) {
    case 'already_best':
      return fi
        ? 'nykyinen liittymä on edullisin käyttöön sopiva'
        : 'the current plan is the cheapest that suits the use';
    case 'speed_oversized':
      return fi
        ? `käyttää ${gb(p.dataGb, lang)} kuukaudessa ${p.currentSpeedMbps}M-liittymällä; ${p.bestSpeedMbps}M riittää`
        : `uses ${gb(p.dataGb, lang)} a month on a ${p.currentSpeedMbps}M plan; ${p.bestSpeedMbps}M covers it`;
    case 'usage_charges':
      return fi
        ? `maksaa käytöstä ${euros(p.usageCents, lang)} kuukaudessa kuukausimaksun lisäksi; liittymä, joka maksaa ${euros(p.bestMonthlyCents, lang)} kuukaudessa, kattaa saman käytön`
        : `pays ${euros(p.usageCents, lang)} a month for use on top of the fee; a plan at ${euros(p.bestMonthlyCents, lang)} a month covers the same use`;
    case 'eu_allowance_unused':
      return fi
        ? `käyttää EU/ETA-alueella ${gb(p.euGb, lang)} kuukaudessa liittymällä, jossa on ${gb(p.currentEuGb, lang)}; ${gb(p.bestEuGb, lang)} riittää`
        : `uses ${gb(p.euGb, lang)} a month in the EU/EEA on a plan with ${gb(p.currentEuGb, lang)}; ${gb(p.bestEuGb, lang)} covers it`;
    case 'cheaper_fee': {
      const contract = p.contractPrice ? (fi ? ' (sopimushinta)' : ' (contract price)') : '';
      return fi
        ? `sama käyttö maksaa ${euros(p.bestMonthlyCents, lang)} eikä ${euros(p.currentMonthlyCents, lang)} kuukaudessa${contract}`
        : `the same use costs ${euros(p.bestMonthlyCents, lang)} instead of ${euros(p.currentMonthlyCents, lang)} a month${contract}`;
    }
    case 'unused':
      return fi
        ? `ei puheluita, tekstiviestejä eikä tiedonsiirtoa ${months(p.months, lang)}; liittymän irtisanominen säästää koko kuukausimaksun ${euros(p.feeCents, lang)}`
        : `no calls, SMS or data for ${months(p.months, lang)}; closing it saves the whole monthly fee of ${euros(p.feeCents, lang)}`;
  }
}
