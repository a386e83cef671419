import type { AlertRule, Lang } from '@kulu/shared';

/**
 * The sentence of an alert in the reader's language, built when it is read from the figures stored
 * with it: "+358401234567 (Matti Virtanen): €212.40 in October 2026, 7.1× the usual €29.90".
 */

const MONTHS = {
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
  /** Inessive: "lokakuussa". */
  fi: [
    'tammikuussa',
    'helmikuussa',
    'maaliskuussa',
    'huhtikuussa',
    'toukokuussa',
    'kesäkuussa',
    'heinäkuussa',
    'elokuussa',
    'syyskuussa',
    'lokakuussa',
    'marraskuussa',
    'joulukuussa',
  ],
} as const;

/** `€212.40` / `212,40 €` from cents. */
export function euros(cents: number, lang: Lang): string {
  const s = (Math.abs(cents) / 100).toFixed(2);
  const [whole, dec] = s.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'fi' ? '\u00a0' : ',');
  const sign = cents < 0 ? '-' : '';
  return lang === 'fi' ? `${sign}${grouped},${dec} €` : `${sign}€${grouped}.${dec}`;
}

const decimal = (n: number, lang: Lang) => {
  const s = n.toFixed(1);
  return lang === 'fi' ? s.replace('.', ',') : s;
};

/** "in October 2026" / "lokakuussa 2026". */
export function inMonth(month: string, lang: Lang): string {
  const [y, m] = month.split('-').map(Number);
  return lang === 'fi' ? `${MONTHS.fi[m - 1]} ${y}` : `in ${MONTHS.en[m - 1]} ${y}`;
}

/** "31 December 2026" / "31.12.2026". */
export function day(iso: string, lang: Lang): string {
  const [y, m, d] = iso.split('-').map(Number);
  return lang === 'fi' ? `${d}.${m}.${y}` : `${d} ${MONTHS.en[m - 1]} ${y}`;
}

type Figures = Record<string, unknown>;
const n = (f: Figures, k: string): number => Number(f[k] ?? 0);
const str = (f: Figures, k: string): string => String(f[k] ?? '');

/** Whom a subscription's alert is about: `+358401234567 (Matti Virtanen)`, its sentence's start. */
export function who(f: Figures): string {
  const phone = str(f, 'phone');
  const name = str(f, 'userName');
  return name ? `${phone} (${name})` : phone;
}

export function alertText(rule: AlertRule, figures: Figures, month: string, lang: Lang): string {
  const f = figures;
  const e = (k: string) => euros(n(f, k), lang);
  const when = inMonth(month, lang);
  const fi = lang === 'fi';
  switch (rule) {
    case 'cost_jump': {
      const usual = n(f, 'usualCents');
      const times = usual > 0 ? decimal(n(f, 'costCents') / usual, lang) : null;
      const roaming =
        n(f, 'roamingCents') > 0
          ? fi
            ? `; siitä verkkovierailua ${e('roamingCents')}`
            : `; ${e('roamingCents')} of it roaming`
          : '';
      if (fi) {
        return `${who(f)}: ${e('costCents')} ${when}, ${
          times
            ? `${times}-kertainen tavalliseen ${e('usualCents')} verrattuna`
            : `tavallisesti ${e('usualCents')}`
        }${roaming}`;
      }
      return `${who(f)}: ${e('costCents')} ${when}, ${times ? `${times}× the usual ${e('usualCents')}` : `usually ${e('usualCents')}`}${roaming}`;
    }
    case 'roaming': {
      const outside = n(f, 'outsideCents');
      if (fi) {
        return `${who(f)}: verkkovierailua ${e('roamingCents')} ${when}${
          outside > 0
            ? `, siitä ${e('outsideCents')} EU/ETA-alueen sekä Pohjoismaiden ja Baltian ulkopuolella`
            : ''
        }`;
      }
      return `${who(f)}: ${e('roamingCents')} roaming ${when}${
        outside > 0 ? `, ${e('outsideCents')} of it outside the EU/EEA and the Nordic-Baltic area` : ''
      }`;
    }
    case 'service_numbers':
      return fi
        ? `${who(f)}: palvelunumeroita ja maksullisia palveluita ${e('serviceCents')} ${when}`
        : `${who(f)}: ${e('serviceCents')} of service numbers and paid services ${when}`;
    case 'new_subscription':
      return fi
        ? `${who(f)}: uusi liittymä laskulla ${when}, ${e('costCents')}`
        : `${who(f)}: new subscription on the invoice ${when}, ${e('costCents')}`;
    case 'subscription_gone':
      return fi
        ? `${who(f)}: ei enää laskulla ${when} (edellisenä kuukautena ${e('lastCents')})`
        : `${who(f)}: no longer on the invoice ${when} (${e('lastCents')} the month before)`;
    case 'invoice_missing':
      return fi
        ? `${str(f, 'operator')}: lasku puuttuu ${when} (odotettu ${n(f, 'day')}. päivään mennessä)`
        : `${str(f, 'operator')}: no invoice ${when} by day ${n(f, 'day')}`;
    case 'contract_ending':
      // The provider's own contract with the client (`client`), or the client's operator contract.
      if (str(f, 'contractKind') === 'client') {
        return fi
          ? `${str(f, 'name')}: asiakassopimus päättyy ${day(str(f, 'endDate'), lang)}`
          : `${str(f, 'name')}: the client contract ends on ${day(str(f, 'endDate'), lang)}`;
      }
      return fi
        ? `${str(f, 'name')}: sopimus päättyy ${day(str(f, 'endDate'), lang)}`
        : `${str(f, 'name')}: the contract ends on ${day(str(f, 'endDate'), lang)}`;
  }
}
