/**
 * Error and success messages that cross the wire (spec §8), in both languages.
 * The API answers `{ code, message }` with the message in the caller's language;
 * the web app loads these same texts into its translations under `errors.<code>`.
 */
export const MESSAGES = {
  // Session
  sessionExpired: {
    en: 'Your session has expired, please login again',
    fi: 'Istuntosi on vanhentunut, kirjaudu uudelleen sisään',
  },
  unauthorized: { en: 'Please login to continue', fi: 'Kirjaudu sisään jatkaaksesi' },
  forbidden: {
    en: 'You do not have permission for this action',
    fi: 'Sinulla ei ole oikeutta tähän toimintoon',
  },
  notFound: { en: 'Not found', fi: 'Ei löytynyt' },
  csrf: {
    en: 'The request could not be verified, please reload the page',
    fi: 'Pyyntöä ei voitu varmentaa, lataa sivu uudelleen',
  },
  validation: { en: 'Please check the highlighted fields', fi: 'Tarkista merkityt kentät' },
  // Request values (schemas/primitives.ts); {allowed} is filled in by the API
  invalidId: {
    en: 'An id must be a whole number from 1 to 2147483647',
    fi: 'Tunnisteen on oltava kokonaisluku väliltä 1–2147483647',
  },
  invalidPaging: {
    en: 'The page must be a whole number from 1 to 1000000 and the page size from 1 to 200',
    fi: 'Sivun on oltava kokonaisluku väliltä 1–1000000 ja sivukoon väliltä 1–200',
  },
  invalidSort: {
    en: 'This list cannot be sorted that way; allowed values: {allowed}',
    fi: 'Luetteloa ei voi lajitella näin; sallitut arvot: {allowed}',
  },
  controlCharacters: {
    en: 'Text must not contain control characters',
    fi: 'Teksti ei saa sisältää ohjausmerkkejä',
  },
  invalidMonth: {
    en: 'A month must be given as YYYY-MM, for example 2026-01',
    fi: 'Kuukausi on annettava muodossa VVVV-KK, esimerkiksi 2026-01',
  },
  invalidPeriod: {
    en: 'The period must start no later than it ends and cover at most 36 months',
    fi: 'Jakson alun on oltava ennen loppua tai sama kuin loppu, ja jakso voi kattaa enintään 36 kuukautta',
  },
  invalidValue: {
    en: 'A value of the request cannot be stored',
    fi: 'Pyynnön arvoa ei voi tallentaa',
  },
  internal: {
    en: 'Something went wrong, please try again later',
    fi: 'Jokin meni vikaan, yritä myöhemmin uudelleen',
  },
  tooManyRequests: {
    en: 'Too many attempts, please try again in a few minutes',
    fi: 'Liian monta yritystä, yritä muutaman minuutin kuluttua uudelleen',
  },
  // Login
  invalidCredentials: { en: 'Please enter valid credential', fi: 'Anna kelvolliset tunnukset' },
  notActivated: { en: 'User is not activated', fi: 'Käyttäjää ei ole aktivoitu' },
  inactive: { en: 'User is currently inactive', fi: 'Käyttäjä ei ole tällä hetkellä aktiivinen' },
  accountLocked: {
    en: 'Too many failed attempts, the account is locked for a few minutes',
    fi: 'Liian monta epäonnistunutta yritystä, tili on lukittu muutamaksi minuutiksi',
  },
  unsupportedGrantType: { en: 'Unsupported grant type', fi: 'Tukematon myöntämistapa' },
  unknownOperator: {
    en: 'Choose one of your operators: there is no contract with this one',
    fi: 'Valitse jokin omista operaattoreistasi: tämän operaattorin kanssa ei ole sopimusta',
  },
  // Forgot / reset
  resetMailSent: {
    en: 'Reset password mail has been sent to the registered email',
    fi: 'Salasanan palautusviesti on lähetetty rekisteröityyn sähköpostiosoitteeseen',
  },
  emailNotFound: { en: 'Email id does not exist', fi: 'Sähköpostiosoitetta ei ole olemassa' },
  resetLinkExpired: {
    en: 'Sorry, the password reset link has expired',
    fi: 'Valitettavasti salasanan palautuslinkki on vanhentunut',
  },
  passwordReset: {
    en: 'Your password has been reset, please login',
    fi: 'Salasanasi on vaihdettu, kirjaudu sisään',
  },
  activationLinkExpired: {
    en: 'Sorry, the activation link has expired',
    fi: 'Valitettavasti aktivointilinkki on vanhentunut',
  },
  activated: {
    en: 'Your account is activated, please login',
    fi: 'Tilisi on aktivoitu, kirjaudu sisään',
  },
  portalUrlNotAllowed: {
    en: 'The portal address must be an https address of a public host',
    fi: 'Portaalin osoitteen on oltava julkisen palvelimen https-osoite',
  },
  // Registration
  companyNameInUse: { en: 'Company name already in use', fi: 'Yrityksen nimi on jo käytössä' },
  businessIdInUse: { en: 'Business id already in use', fi: 'Y-tunnus on jo käytössä' },
  emailInUse: { en: 'Email already in use', fi: 'Sähköpostiosoite on jo käytössä' },
  registered: {
    en: 'Registration successful, we will contact you soon',
    fi: 'Rekisteröityminen onnistui, otamme sinuun pian yhteyttä',
  },
  // Profile
  profileUpdated: { en: 'Profile updated successfully', fi: 'Profiili päivitetty' },
  passwordChanged: { en: 'Password changed successfully', fi: 'Salasana vaihdettu' },
  oldPasswordWrong: { en: 'Old password is incorrect', fi: 'Vanha salasana on väärä' },
  logoPngOnly: { en: 'Logo must be a PNG image', fi: 'Logon on oltava PNG-kuva' },
  logoTooLarge: {
    en: 'Logo is too large (at most 1 MB and 2000 × 2000 pixels)',
    fi: 'Logo on liian suuri (enintään 1 Mt ja 2000 × 2000 pikseliä)',
  },
  emptyBody: {
    en: 'The request names no field to save',
    fi: 'Pyynnössä ei ole yhtään tallennettavaa kenttää',
  },
  unknownField: {
    en: 'Unknown field in the request: {fields}',
    fi: 'Pyynnössä on tuntematon kenttä: {fields}',
  },
  menuDisabled: {
    en: 'The menu is disabled because your company has no valid contract or has been terminated',
    fi: 'Valikko ei ole käytössä, koska yritykselläsi ei ole voimassa olevaa sopimusta tai asiakkuus on päättynyt',
  },
  // Master data (spec §8 and the masters' generic answers)
  created: { en: 'Saved successfully', fi: 'Tallennettu' },
  updated: { en: 'Updated successfully', fi: 'Päivitetty' },
  deleted: { en: 'Deleted successfully', fi: 'Poistettu' },
  inUse: {
    en: 'This row is in use and cannot be deleted',
    fi: 'Rivi on käytössä, eikä sitä voi poistaa',
  },
  nameExists: { en: 'A row with the same name already exists', fi: 'Samanniminen rivi on jo olemassa' },
  codeExists: {
    en: 'A row with the same code already exists',
    fi: 'Rivi, jolla on sama tunnus, on jo olemassa',
  },
  phoneNumberExists: {
    en: 'This phone number is already skipped',
    fi: 'Tämä puhelinnumero on jo ohitettavien listalla',
  },
  billingPlanNameExists: {
    en: 'Billing plan with same name exists',
    fi: 'Samanniminen laskutusmalli on jo olemassa',
  },
  billingPlanInUse: {
    en: 'Billing plan in use cannot be deleted',
    fi: 'Käytössä olevaa laskutusmallia ei voi poistaa',
  },
  billingPlanCreated: { en: 'Billing plan added successfully', fi: 'Laskutusmalli lisätty' },
  billingPlanUpdated: { en: 'Billing plan updated successfully', fi: 'Laskutusmalli päivitetty' },
  billingPlanDeleted: { en: 'Billing plan deleted successfully', fi: 'Laskutusmalli poistettu' },
  costElementsApproved: { en: 'Cost elements approved', fi: 'Kustannuserät hyväksytty' },
  costElementsCategorized: { en: 'Cost elements categorized', fi: 'Kustannuserät luokiteltu' },
  costElementNotCategorized: {
    en: 'A cost element without a cost category cannot be approved',
    fi: 'Kustannuserää, jolla ei ole kustannusluokkaa, ei voi hyväksyä',
  },
  helpFileUploaded: { en: 'Help file uploaded successfully', fi: 'Ohjetiedosto ladattu' },
  helpFileType: {
    en: 'The help file must be a PDF or Word document',
    fi: 'Ohjetiedoston on oltava PDF- tai Word-asiakirja',
  },
  helpFileTooLarge: {
    en: 'The help file is too large (at most 20 MB)',
    fi: 'Ohjetiedosto on liian suuri (enintään 20 Mt)',
  },
  // Invoices (spec §5, §8)
  invoiceNotPdf: {
    en: 'Invoice must be a PDF or a Finvoice e-invoice',
    fi: 'Laskun on oltava PDF-tiedosto tai Finvoice-verkkolasku',
  },
  invoiceTooLarge: {
    en: 'The invoice file is too large (at most 20 MB)',
    fi: 'Laskutiedosto on liian suuri (enintään 20 Mt)',
  },
  invalidInvoice: { en: 'Not a valid invoice', fi: 'Tiedosto ei ole kelvollinen lasku' },
  invoiceUnreadable: {
    en: 'The PDF file is damaged or cannot be read',
    fi: 'PDF-tiedosto on vioittunut tai sitä ei voi lukea',
  },
  invoiceEncrypted: {
    en: 'The PDF file is password protected',
    fi: 'PDF-tiedosto on suojattu salasanalla',
  },
  invoiceMalformed: {
    en: 'The invoice does not follow the operator’s layout',
    fi: 'Lasku ei noudata operaattorin laskupohjaa',
  },
  invoiceReconciliation: {
    en: 'The invoice lines do not add up to the invoice total',
    fi: 'Laskurivien summa ei täsmää laskun loppusummaan',
  },
  invoiceUnknownFileType: {
    en: 'The invoice must be a PDF or a Finvoice e-invoice (XML)',
    fi: 'Laskun on oltava PDF-tiedosto tai Finvoice-verkkolasku (XML)',
  },
  invoiceXmlNotWellFormed: {
    en: 'The XML file is damaged or not well-formed (check its character encoding)',
    fi: 'XML-tiedosto on vioittunut tai virheellinen (tarkista sen merkistö)',
  },
  invoiceXmlDoctype: {
    en: 'The XML file declares its own DTD or entities, which are not accepted for security reasons',
    fi: 'XML-tiedosto määrittelee oman DTD:n tai entiteettejä, joita ei tietoturvasyistä hyväksytä',
  },
  invoiceXmlCharset: {
    en: 'The character encoding of the XML file is not supported (use UTF-8 or ISO-8859-15)',
    fi: 'XML-tiedoston merkistöä ei tueta (käytä UTF-8- tai ISO-8859-15-merkistöä)',
  },
  invoiceXmlTooDeep: {
    en: 'The XML file is nested too deeply to be an invoice',
    fi: 'XML-tiedoston rakenne on liian syvä ollakseen lasku',
  },
  invoiceXmlTooLarge: {
    en: 'The e-invoice has too many rows or too long texts to be read',
    fi: 'Verkkolaskussa on liikaa rivejä tai liian pitkiä tekstejä luettavaksi',
  },
  invoiceNotFinvoice: {
    en: 'The XML file is not a Finvoice e-invoice (other e-invoice formats such as UBL are not supported)',
    fi: 'XML-tiedosto ei ole Finvoice-verkkolasku (muita verkkolaskumuotoja, kuten UBL:ää, ei tueta)',
  },
  invoiceFinvoiceVersion: {
    en: 'This Finvoice version is not supported (supported: 1.3, 2.0, 2.01 and 3.0)',
    fi: 'Tätä Finvoice-versiota ei tueta (tuetut: 1.3, 2.0, 2.01 ja 3.0)',
  },
  invoiceFinvoiceType: {
    en: 'Only invoices and credit notes can be imported, not other Finvoice messages',
    fi: 'Vain laskuja ja hyvityslaskuja voi tuoda, ei muita Finvoice-sanomia',
  },
  invoiceUnknownSeller: {
    en: 'The seller of the e-invoice is not a supported operator (Elisa, Telia or DNA)',
    fi: 'Verkkolaskun myyjä ei ole tuettu operaattori (Elisa, Telia tai DNA)',
  },
  invoiceRowsMismatch: {
    en: 'The invoice rows do not add up to the invoice total excluding VAT',
    fi: 'Laskurivien summa ei täsmää laskun verottomaan loppusummaan',
  },
  invoiceVatMismatch: {
    en: 'The VAT amounts of the invoice do not add up',
    fi: 'Laskun arvonlisäverot eivät täsmää',
  },
  invoiceParseTimeout: {
    en: 'Reading the invoice took too long',
    fi: 'Laskun lukeminen kesti liian kauan',
  },
  invoiceUnknownOperator: {
    en: 'The invoice is from an operator that is not in use',
    fi: 'Lasku on operaattorilta, joka ei ole käytössä',
  },
  invoiceAlreadyParsed: { en: 'Invoice already parsed', fi: 'Lasku on jo käsitelty' },
  invoiceExpandsTooMuch: {
    en: 'The file expands beyond the memory allowed for reading one invoice',
    fi: 'Tiedosto laajenee luettaessa yli yhden laskun lukemiseen sallitun muistin',
  },
  invoiceParseInterrupted: {
    en: 'Reading the invoice was interrupted, please upload it again',
    fi: 'Laskun lukeminen keskeytyi, lataa lasku uudelleen',
  },
  invoiceOperatorNoContract: {
    en: 'The client has no contract with the operator of this invoice',
    fi: 'Asiakkaalla ei ole sopimusta tämän laskun operaattorin kanssa',
  },
  invoiceOtherBuyer: {
    en: 'The invoice is addressed to another company (business id {businessId})',
    fi: 'Lasku on osoitettu toiselle yritykselle (Y-tunnus {businessId})',
  },
  invoiceNoBuyer: {
    en: 'The e-invoice names no buyer business id, so it cannot be told to be this company’s',
    fi: 'Verkkolaskussa ei ole ostajan Y-tunnusta, joten sitä ei voi todeta tämän yrityksen laskuksi',
  },
  invoiceDeleted: { en: 'Invoice deleted', fi: 'Lasku poistettu' },
  invoiceDeleteInProgress: {
    en: 'An invoice still being read cannot be deleted; wait until it is uploaded or failed',
    fi: 'Käsittelyssä olevaa laskua ei voi poistaa; odota, kunnes se on ladattu tai epäonnistunut',
  },
  invoiceFileRefused: {
    en: 'The file could not be stored, please try again',
    fi: 'Tiedostoa ei voitu tallentaa, yritä uudelleen',
  },
  previousParseRunning: {
    en: 'Previous request is still parsing, you will be notified by email when it is done',
    fi: 'Edellisen pyynnön käsittely on vielä kesken, saat ilmoituksen sähköpostiisi, kun se on valmis',
  },
  parseBudgetExhausted: {
    en: 'Your company has used its invoice reading time for this hour; please upload again later',
    fi: 'Yrityksenne on käyttänyt tämän tunnin laskujen käsittelyajan; lataa laskut myöhemmin uudelleen',
  },
  invoiceUploaded: { en: 'Invoice uploaded, parsing started', fi: 'Lasku ladattu, käsittely aloitettu' },
  invoiceSameFileFailed: {
    en: 'This same file was already uploaded and could not be imported; delete that failed invoice to upload it again',
    fi: 'Sama tiedosto on jo ladattu, eikä sitä voitu tuoda; poista epäonnistunut lasku ladataksesi sen uudelleen',
  },
  uploadsBusy: {
    en: 'The server is receiving too many uploads right now, please try again in a moment',
    fi: 'Palvelin vastaanottaa juuri nyt liian monta latausta, yritä hetken kuluttua uudelleen',
  },
  clientStorageFull: {
    en: "The company's storage for invoice files is full; delete failed or old invoices to make room",
    fi: 'Yrityksen laskutiedostojen tallennustila on täynnä; poista epäonnistuneita tai vanhoja laskuja tilan vapauttamiseksi',
  },
  dailyUploadBudgetSpent: {
    en: "The company's upload allowance for today is used up, please continue tomorrow",
    fi: 'Yrityksen tämän päivän latauskiintiö on käytetty, jatka huomenna',
  },
  invoiceFileRemoved: {
    en: 'The file of this failed invoice is no longer kept',
    fi: 'Tämän epäonnistuneen laskun tiedostoa ei enää säilytetä',
  },
  noUploadsThisMonth: {
    en: 'No uploads for this month',
    fi: 'Tälle kuukaudelle ei ole ladattu laskuja',
  },
  invoiceFailed: {
    en: 'The invoice could not be imported',
    fi: 'Laskua ei voitu tuoda',
  },
  portalCredentialsRequired: {
    en: 'Operator portal username and password are required for automated upload',
    fi: 'Automaattinen lataus vaatii operaattoriportaalin käyttäjätunnuksen ja salasanan',
  },
  retryQueued: { en: 'Retry started', fi: 'Uusi yritys aloitettu' },
  // Optimization (issue 10)
  invalidTab: {
    en: 'The tab must be optimized, unoptimized or unused',
    fi: 'Välilehden on oltava optimoitu, optimoimaton tai käyttämätön',
  },
  invalidAmount: {
    en: 'An amount must be a number from 0 with at most two decimals',
    fi: 'Summan on oltava vähintään 0 ja siinä voi olla enintään kaksi desimaalia',
  },
  markNothing: { en: 'Select at least one subscription', fi: 'Valitse vähintään yksi liittymä' },
  markTooMany: {
    en: 'At most 500 subscriptions can be marked at once',
    fi: 'Kerralla voi merkitä enintään 500 liittymää',
  },
  markNotOptimizable: {
    en: 'Only subscriptions with a recommendation can be marked for optimization',
    fi: 'Optimoitavaksi voi merkitä vain liittymiä, joille on suositus',
  },
  markedForOptimization: {
    en: 'Marked for optimization',
    fi: 'Merkitty optimoitavaksi',
  },
  reoptimizeQueued: {
    en: 'Re-optimization started; the results update when it is done',
    fi: 'Uudelleenoptimointi aloitettu; tulokset päivittyvät, kun se on valmis',
  },
  // Report archive (issue 12, spec §8)
  exportScheduleFailed: {
    en: 'The Excel export could not be scheduled, please try again later',
    fi: 'Excel-raportin ajastus epäonnistui, yritä myöhemmin uudelleen',
  },
  exportFailed: {
    en: 'The Excel export failed, please try again later',
    fi: 'Excel-raportin muodostus epäonnistui, yritä myöhemmin uudelleen',
  },
  exportScheduled: {
    en: 'The export is scheduled; it appears here as Ready when the file is made',
    fi: 'Raportti on ajastettu; se näkyy täällä valmiina, kun tiedosto on muodostettu',
  },
  exportNotReady: { en: 'The export is not ready yet', fi: 'Raportti ei ole vielä valmis' },
  exportComingSoon: { en: 'This report is coming soon', fi: 'Tämä raportti on tulossa pian' },
  exportDeleted: { en: 'Export deleted', fi: 'Raportti poistettu' },
  // Client management (issue 11, spec §8)
  providerIdInUse: { en: 'Provider id already in use', fi: 'Palveluntarjoajan tunnus on jo käytössä' },
  clientAdded: { en: 'Customer added successfully', fi: 'Asiakas lisätty' },
  clientUpdated: { en: 'Customer updated successfully', fi: 'Asiakkaan tiedot päivitetty' },
  convertedToLead: {
    en: 'Client converted to a lead successfully',
    fi: 'Asiakas muutettu liidiksi',
  },
  convertedToCompany: {
    en: 'Client converted to a company successfully',
    fi: 'Asiakas muutettu yritysasiakkaaksi',
  },
  convertedToConsultant: {
    en: 'Client converted to a consultant successfully',
    fi: 'Asiakas muutettu konsultiksi',
  },
  alreadyConverted: {
    en: 'This client has already been converted',
    fi: 'Tämä asiakas on jo muutettu',
  },
  notConsultant: {
    en: 'Companies can be assigned only to a consultant',
    fi: 'Yrityksiä voi määrittää vain konsultille',
  },
  assignedCompaniesSaved: {
    en: 'Assigned companies saved successfully',
    fi: 'Määritetyt yritykset tallennettu',
  },
  // Client sections: sub-companies and client users (issue 11, spec §8)
  subCompanyNameExists: { en: 'Sub-company name already exists', fi: 'Tytäryhtiön nimi on jo käytössä' },
  subCompanyAdded: { en: 'Sub-company added successfully', fi: 'Tytäryhtiö lisätty' },
  subCompanyUpdated: { en: 'Sub-company updated successfully', fi: 'Tytäryhtiön tiedot päivitetty' },
  subCompanyDeleted: { en: 'Sub-company deleted successfully', fi: 'Tytäryhtiö poistettu' },
  subCompanyInUse: {
    en: 'This sub-company has users, cost centers or invoices and cannot be deleted',
    fi: 'Tytäryhtiöllä on käyttäjiä, kustannuspaikkoja tai laskuja, eikä sitä voi poistaa',
  },
  clientUserAdded: {
    en: 'User added successfully; an activation link was sent by email',
    fi: 'Käyttäjä lisätty; aktivointilinkki lähetettiin sähköpostilla',
  },
  clientUserUpdated: { en: 'User updated successfully', fi: 'Käyttäjän tiedot päivitetty' },
  clientUserDeactivated: { en: 'User deactivated successfully', fi: 'Käyttäjä poistettu käytöstä' },
  clientUserActivated: { en: 'User activated successfully', fi: 'Käyttäjä otettu käyttöön' },
  clientUsersCompanyOnly: {
    en: 'Additional users can be added only to a company',
    fi: 'Lisäkäyttäjiä voi lisätä vain yritysasiakkaalle',
  },
  // The provider's own users (issue 11; decisions/0012)
  providerUserAdded: {
    en: 'User added successfully; an activation link was sent by email',
    fi: 'Käyttäjä lisätty; aktivointilinkki lähetettiin sähköpostilla',
  },
  providerUserUpdated: { en: 'User updated successfully', fi: 'Käyttäjän tiedot päivitetty' },
  providerUserDeactivated: { en: 'User deactivated successfully', fi: 'Käyttäjä poistettu käytöstä' },
  providerUserActivated: { en: 'User activated successfully', fi: 'Käyttäjä otettu käyttöön' },
  userEmailExists: {
    en: 'A user with this email already exists',
    fi: 'Tällä sähköpostiosoitteella on jo käyttäjä',
  },
  ownAccessLocked: {
    en: 'You cannot deactivate yourself, change your own role or remove your own user management access',
    fi: 'Et voi poistaa itseäsi käytöstä, vaihtaa omaa rooliasi tai poistaa omaa käyttäjähallinnan oikeuttasi',
  },
  // Client masters: invoice users and plan details (issue 11)
  clientUserEmailExists: {
    en: 'Client user email already exists',
    fi: 'Asiakaskäyttäjän sähköpostiosoite on jo käytössä',
  },
  invoiceUserPhoneExists: {
    en: 'A user with this phone number already exists',
    fi: 'Tällä puhelinnumerolla on jo käyttäjä',
  },
  invoiceUserAdded: { en: 'User added successfully', fi: 'Käyttäjä lisätty' },
  invoiceUserUpdated: { en: 'User updated successfully', fi: 'Käyttäjän tiedot päivitetty' },
  invoiceUserDeleted: { en: 'User deleted successfully', fi: 'Käyttäjä poistettu' },
  importFileType: {
    en: 'The file must be a CSV file or an Excel workbook (.xlsx)',
    fi: 'Tiedoston on oltava CSV-tiedosto tai Excel-työkirja (.xlsx)',
  },
  importTooLarge: {
    en: 'The file is too large (at most 5 MB)',
    fi: 'Tiedosto on liian suuri (enintään 5 Mt)',
  },
  importTooManyRows: {
    en: 'The file has too many rows (at most 10000)',
    fi: 'Tiedostossa on liian monta riviä (enintään 10000)',
  },
  importTooManyColumns: {
    en: 'The sheet has too many columns (at most 256)',
    fi: 'Taulukossa on liian monta saraketta (enintään 256)',
  },
  importEmpty: { en: 'The file has no rows to import', fi: 'Tiedostossa ei ole tuotavia rivejä' },
  importColumnsMissing: {
    en: 'The first row must name the columns, at least name and phone number',
    fi: 'Ensimmäisellä rivillä on oltava sarakkeiden nimet, vähintään nimi ja puhelinnumero',
  },
  importDone: { en: 'Users imported successfully', fi: 'Käyttäjät tuotu' },
  planDetailsUpdated: {
    en: 'Plan details updated; re-optimization started',
    fi: 'Liittymän tiedot päivitetty; uudelleenoptimointi aloitettu',
  },
  // Client sections: contracts (issue 11)
  contractAdded: { en: 'Contract added successfully', fi: 'Sopimus lisätty' },
  contractDrafted: { en: 'Contract saved as a draft', fi: 'Sopimus tallennettu luonnoksena' },
  contractUpdated: { en: 'Contract updated successfully', fi: 'Sopimus päivitetty' },
  contractTerminated: { en: 'Contract terminated successfully', fi: 'Sopimus irtisanottu' },
  contractStartBeforePrevious: {
    en: "The contract must start after the previous contract's end date",
    fi: 'Sopimuksen on alettava edellisen sopimuksen päättymispäivän jälkeen',
  },
  contractTerminationDate: {
    en: "The termination date must be between the contract's start and end dates",
    fi: 'Irtisanomispäivän on oltava sopimuksen alku- ja loppupäivän välillä',
  },
  contractNotEditable: {
    en: 'This contract can no longer be changed',
    fi: 'Tätä sopimusta ei voi enää muuttaa',
  },
  contractTerminateActiveOnly: {
    en: 'Only an active contract can be terminated; a draft stays a draft until it is activated',
    fi: 'Vain aktiivisen sopimuksen voi irtisanoa; luonnos pysyy luonnoksena, kunnes se aktivoidaan',
  },
  contractNoBillingPlan: {
    en: 'Choose a billing plan for the contract or the client first',
    fi: 'Valitse ensin laskutusmalli sopimukselle tai asiakkaalle',
  },
  // Client sections: billing, payments, on-demand support (issue 11)
  clientBillingUpdated: { en: 'Billing plan saved successfully', fi: 'Laskutusmalli tallennettu' },
  paymentAdded: { en: 'Payment added successfully', fi: 'Maksu lisätty' },
  paymentUpdated: { en: 'Payment updated successfully', fi: 'Maksu päivitetty' },
  paymentDeleted: { en: 'Payment deleted successfully', fi: 'Maksu poistettu' },
  paymentAmountPositive: {
    en: 'Payment amount must be greater than 0',
    fi: 'Maksun summan on oltava suurempi kuin 0',
  },
  paymentDateInFuture: {
    en: 'Payment date cannot be in the future',
    fi: 'Maksupäivä ei voi olla tulevaisuudessa',
  },
  supportHoursAdded: { en: 'On-demand support added successfully', fi: 'Tukitunnit lisätty' },
  supportHoursUpdated: { en: 'On-demand support updated successfully', fi: 'Tukitunnit päivitetty' },
  supportHoursDeleted: { en: 'On-demand support deleted successfully', fi: 'Tukitunnit poistettu' },
  supportHoursPositive: {
    en: 'On-demand support hours must be greater than 0',
    fi: 'Tukituntien määrän on oltava suurempi kuin 0',
  },
  supportDateNotInMonth: {
    en: 'The date must be within the current month and not after today',
    fi: 'Päivämäärän on oltava kuluvalla kuukaudella eikä tämän päivän jälkeen',
  },
  // Client sections: operator contract details and documents (issue 11, spec §5, §8)
  operatorContractSaved: {
    en: 'Operator contract details saved successfully',
    fi: 'Operaattorisopimuksen tiedot tallennettu',
  },
  operatorContractReminderDate: {
    en: 'The contract end date reminder must be after the contract start date and before the contract end date',
    fi: 'Sopimuksen päättymismuistutuksen on oltava sopimuksen alkamispäivän jälkeen ja ennen päättymispäivää',
  },
  documentUploaded: { en: 'Document uploaded successfully', fi: 'Asiakirja ladattu' },
  documentDeleted: { en: 'Document deleted successfully', fi: 'Asiakirja poistettu' },
  documentNameExists: {
    en: 'Document with same name already uploaded',
    fi: 'Samanniminen asiakirja on jo ladattu',
  },
  documentNameInvalid: {
    en: 'Document name may contain only letters, numbers and spaces (no symbols)',
    fi: 'Asiakirjan nimessä saa olla vain kirjaimia, numeroita ja välilyöntejä (ei erikoismerkkejä)',
  },
  documentType: {
    en: 'Allowed document types are doc, docx, xls, xlsx, csv and pdf',
    fi: 'Sallitut asiakirjatyypit ovat doc, docx, xls, xlsx, csv ja pdf',
  },
  documentTooLarge: {
    en: 'Document is too large (at most 10 MB)',
    fi: 'Asiakirja on liian suuri (enintään 10 Mt)',
  },
  documentUploadFailed: { en: 'Document upload failed', fi: 'Asiakirjan lataus epäonnistui' },
  documentDeleteFailed: { en: 'Document delete failed', fi: 'Asiakirjan poisto epäonnistui' },
} as const;

export type MessageCode = keyof typeof MESSAGES;
export type Lang = 'en' | 'fi';

export const message = (code: MessageCode, lang: Lang = 'en'): string => MESSAGES[code][lang];

/** `{name} is required` / `{name} is invalid!` (spec §5), in both languages. */
export const FIELD_MESSAGES = {
  required: { en: '{name} is required', fi: '{name} on pakollinen' },
  invalid: { en: '{name} is invalid!', fi: '{name} on virheellinen!' },
} as const;

export const fieldMessage = (kind: keyof typeof FIELD_MESSAGES, name: string, lang: Lang = 'en'): string =>
  FIELD_MESSAGES[kind][lang].replace('{name}', name);

/** The body of every API error. `fields` maps a field path to a message code of FIELD_MESSAGES. */
export interface ApiError {
  statusCode: number;
  code: string;
  message: string;
  fields?: Record<string, string>;
}
