import type { Random } from './random.js';

export const FIRST_NAMES = [
  'Matti',
  'Maija',
  'Antti',
  'Sanna',
  'Jukka',
  'Kaisa',
  'Onni',
  'Aino',
  'Lauri',
  'Elina',
  'Pekka',
  'Jenni',
  'Jyrki',
  'Hannele',
  'Eetu',
  'Veera',
  'Mikko',
  'Päivi',
  'Tuomas',
  'Åsa',
  'Björn',
  'Sanna-Mari',
  'Anna-Kaisa',
  'Juha-Pekka',
  'Ville',
  'Liisa',
  'Oskari',
  'Sofia',
  'Eemeli',
  'Helmi',
  'Väinö',
  'Iida',
  'Niklas',
  'Ronja',
];

export const LAST_NAMES = [
  'Meikäläinen',
  'Virtanen',
  'Korhonen',
  'Mäkinen',
  'Nieminen',
  'Heikkinen',
  'Savolainen',
  'Kinnunen',
  'Pöllänen',
  'Björklund',
  'Laitinen',
  'Tuominen',
  'Mäkelä',
  'Lindqvist',
  'Åberg',
  'Hämäläinen',
  'Koskinen',
  'Järvinen',
  'Lehtonen',
  'Räsänen',
  'Virtanen-Åberg',
  'Väisänen',
  'Öhman',
  'Kärkkäinen',
  'Ylä-Outinen',
];

const LONG_SURNAMES = [
  'Vähä-Hyyppä-Lindqvist',
  'Kauppinen-Kärkkäinen',
  'Pohjanpalo-Wikström',
  'Ylikärppä-Hämäläinen',
];

export function personName(rng: Random): string {
  if (rng.chance(0.04)) {
    // long names: several first names, double-barrelled surnames
    return `${rng.pick(FIRST_NAMES)} ${rng.pick(FIRST_NAMES)} ${rng.pick(FIRST_NAMES)} ${rng.pick(LONG_SURNAMES)}`;
  }
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

const COMPANY_STEMS = [
  'Kuljetusliike Mäkelä',
  'Lappeenrannan Konepaja',
  'Esimerkki',
  'Pohjolan Puu',
  'Tampereen Rakennus',
  'Saariston Kala',
  'Åbo Logistik',
  'Keski-Suomen Kone',
  'Itä-Helsingin Huolto',
  'Vaasan Sähkö',
];
const LONG_COMPANIES = [
  'Pohjois-Karjalan Sähkö- ja Lämpöasennuspalvelut',
  'Etelä-Pohjanmaan Maatalous- ja Metsäkoneurakointi',
  'Kymenlaakson Kiinteistöhuolto ja Siivouspalvelut',
];

export function companyName(rng: Random): string {
  const stem = rng.chance(0.2) ? rng.pick(LONG_COMPANIES) : rng.pick(COMPANY_STEMS);
  return `${stem} ${rng.pick(['Oy', 'Oy', 'Oy', 'Ab', 'Oyj'])}`;
}

const STREETS = ['Hämeenkatu', 'Valtakatu', 'Mannerheimintie', 'Kauppakatu', 'Satamatie', 'Teollisuustie'];
const CITIES = [
  ['33100', 'TAMPERE'],
  ['53100', 'LAPPEENRANTA'],
  ['00100', 'HELSINKI'],
  ['20100', 'TURKU'],
  ['65100', 'VAASA'],
  ['90100', 'OULU'],
];

export function address(rng: Random): string[] {
  const [zip, city] = rng.pick(CITIES);
  const street = `${rng.pick(STREETS)} ${rng.int(1, 60)}${rng.chance(0.4) ? ` ${rng.pick(['A', 'B', 'C'])} ${rng.int(1, 40)}` : ''}`;
  return [street, `${zip} ${city}`];
}

/** A Finnish business id with a valid check digit (`1234567-8`). */
export function businessId(rng: Random): string {
  for (;;) {
    const body = `${rng.int(1, 3)}${rng.digits(6)}`;
    const weights = [7, 9, 10, 5, 8, 4, 2];
    const sum = [...body].reduce((s, d, i) => s + Number(d) * weights[i], 0);
    const r = sum % 11;
    if (r === 1) continue;
    return `${body}-${r === 0 ? 0 : 11 - r}`;
  }
}

/** A Finnish reference number (viitenumero) with its 7-3-1 check digit. */
export function referenceNumber(rng: Random): string {
  const body = `${rng.int(1, 9)}${rng.digits(rng.int(5, 18))}`;
  const weights = [7, 3, 1];
  const sum = [...body].reverse().reduce((s, d, i) => s + Number(d) * weights[i % 3], 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

export const COST_CENTERS: [string, string][] = [
  ['1001', 'Myynti'],
  ['1002', 'Hallinto'],
  ['2001', 'Tuotanto'],
  ['3000', 'Logistiikka'],
  ['4100', 'Asiakaspalvelu'],
  ['5200', 'Tutkimus ja kehitys'],
];

export const PLANS: Record<string, [string, number][]> = {
  elisa: [
    ['Elisa Yritysliittymä 5G (1000M)', 2990],
    ['Elisa Yritysliittymä 5G (300M)', 1990],
    ['Elisa Yritysliittymä 5G (100M)', 1490],
    ['Elisa Yritysliittymä 4G (50M)', 990],
  ],
  telia: [
    ['Telia Yritys Mobiili 5G 1000M', 3190],
    ['Telia Yritys Mobiili 5G 300M', 2290],
    ['Telia Yritys Mobiili 5G 100M', 1790],
    ['Telia Yritys Mobiili 4G 50M', 1290],
  ],
  dna: [
    ['DNA Yritys Liittymä 5G 1000M', 2990],
    ['DNA Yritys Liittymä 5G 300M', 2190],
    ['DNA Yritys Liittymä 5G 100M', 1690],
    ['DNA Yritys Liittymä 4G 50M', 1190],
  ],
};

export const ADD_ONS: [string, number][] = [
  ['Vastaajapalvelu', 190],
  ['Lisälaite data', 490],
  ['Mobiilivarmenne', 99],
];
