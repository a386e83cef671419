import { message } from '@kulu/shared';
import { digestMail } from './digest.js';
import type { MailTemplates } from './index.js';

/** Suomenkieliset viestit (Finnish mail texts). */
export const fi: MailTemplates = {
  passwordReset: ({ name, link, hours }) => ({
    subject: 'Kulu: salasanan palautus',
    text: `Hei ${name},\n\nvaihda salasanasi tästä linkistä (voimassa ${hours} tuntia, käytettävissä kerran):\n${link}\n\nJos et pyytänyt salasanan palautusta, voit jättää tämän viestin huomiotta.`,
  }),
  activation: ({ name, link }) => ({
    subject: 'Kulu: aktivoi käyttäjätunnuksesi',
    text: `Hei ${name},\n\nsinulle on luotu Kulu-tunnus. Aseta salasanasi tästä linkistä:\n${link}`,
  }),
  signupAttempt: ({ name, resetLink }) => ({
    subject: 'Kulu: osoitteellasi yritettiin rekisteröityä',
    text: `Hei ${name},\n\njoku yritti rekisteröityä Kuluun sähköpostiosoitteellasi, jolla on jo tunnus. Uutta tunnusta ei luotu.\n\nJos se olit sinä ja olet unohtanut salasanasi, pyydä uusi täältä:\n${resetLink}\n\nJos se et ollut sinä, voit jättää tämän viestin huomiotta.\n\nKulu`,
  }),
  uploadReminder: ({ name, month, operators }) => ({
    subject: `Kulu: ${message('noUploadsThisMonth', 'fi')} (${month})`,
    text: `Hei ${name},\n\n${message('noUploadsThisMonth', 'fi')} (${month}): ${operators.join(', ')}.\nLataa laskut Kulussa kohdassa Laskujen lataus.\n\nKulu`,
  }),
  parseDone: ({ name, what, ok, reason }) => ({
    subject: 'Kulu: laskun käsittely on valmis',
    text: `Hei ${name},\n\nedellinen laskun käsittely on valmis: ${what} ${ok ? 'ladattiin onnistuneesti' : `epäonnistui (${reason})`}.\nVoit nyt ladata laskusi uudelleen.\n\nKulu`,
  }),
  accountActivated: ({ name, loginLink }) => ({
    subject: 'Kulu: tunnuksesi on aktivoitu',
    text: `Hei ${name},\n\nKulu-tunnuksesi on aktivoitu. Kirjaudu sisään sähköpostiosoitteella ja salasanalla, joilla rekisteröidyit:\n${loginLink}\n\nKulu`,
  }),
  accountAwaitingContract: ({ name, companyName, loginLink }) => ({
    subject: 'Kulu: tunnuksesi on valmis',
    text: `Hei ${name},\n\nKulu-tunnuksesi (${companyName}) on valmis. Kulun raportit ja luvut avautuvat, kun yrityksesi sopimus palveluntarjoajan kanssa on voimassa. Sitä ennen voit kirjautua sisään sähköpostiosoitteella ja salasanalla, joilla rekisteröidyit, ja päivittää profiiliasi:\n${loginLink}\n\nKulu`,
  }),
  leadReminder: ({ name, day, leads, link }) => ({
    subject: `Kulu: liidien muistutukset ${day}`,
    text: `Hei ${name},\n\nnäillä liideillä on muistutus tänään (${day}):\n${leads
      .map(
        (l) =>
          `- ${l.companyName}${l.leadStatus ? ` (${({ hot: 'kuuma', cold: 'kylmä', lost: 'menetetty' } as Record<string, string>)[l.leadStatus] ?? l.leadStatus})` : ''}`,
      )
      .join('\n')}\n\nAsiakashallinta: ${link}\n\nKulu`,
  }),
  operatorContractReminder: ({ name, companyName, operatorName, endDate }) => ({
    subject: `Kulu: yrityksen ${companyName} ${operatorName}-sopimus on päättymässä`,
    text: `Hei ${name},\n\ntämä on yrityksen ${companyName} ${operatorName}-operaattorisopimuksen päättymismuistutus: sopimus päättyy ${endDate ? endDate.split('-').reverse().map(Number).join('.') : '(ei päättymispäivää)'}.\nKatso operaattorisopimuksen tiedot Kulussa.\n\nKulu`,
  }),
  exportReady: ({ name, report, rows, link, days }) => ({
    subject: `Kulu: raporttisi "${report}" on valmis`,
    text: `Hei ${name},\n\nExcel-raportti "${report}" (${rows} riviä) on valmis. Lataa se kohdasta Raportit > Lataukset:\n${link}\n\nTiedosto säilytetään ${days} päivää.\n\nKulu`,
  }),
  alertDigest: (p) =>
    digestMail(
      'fi',
      {
        subject: (n) => `Kulu: ${n} ${n === 1 ? 'uusi hälytys' : 'uutta hälytystä'}`,
        hello: (name) => `Hei ${name},`,
        intro: 'Kulussa on uusia hälytyksiä, vakavimmat ensin:',
        more: (n) => `… ja ${n} muuta Hälytykset-sivulla.`,
        all: 'Kaikki hälytykset',
        when: {
          immediate: 'Saat tämän hälytyskoosteen jokaisen hälytyksiä tuottavan laskun jälkeen.',
          daily: 'Saat tämän hälytyskoosteen kerran päivässä, kun uusia hälytyksiä on.',
        },
        change: 'Muuta tätä profiilissasi',
      },
      p,
    ),
};
