import type { Translation } from '../../lib/i18n/translation.ts';
import type { dashboardTexts } from './texts.en.ts';

/** The dashboards in Romanian (namespace `dashboard`). */
export const dashboardTextsRo: Translation<typeof dashboardTexts, 'ro'> = {
  intro: 'Înregistrările de dispozitive și evenimentele acestui proiect, pe măsură ce au loc, pe perioade și pe țări (UTC).',
  globalIntro: 'Înregistrările de dispozitive și evenimentele tuturor proiectelor la un loc, pe perioade, pe țări și pe proiecte (UTC).',
  filters: {
    scope: 'Domeniu',
  },
  totals: {
    label: 'Totaluri',
    issued: 'Înregistrări de dispozitive',
    sum: 'Evenimente',
  },
  chart: {
    title: 'Utilizare',
    label: 'Grafic cu coloane al înregistrărilor și evenimentelor pe {{period}}, de la {{from}} la {{to}}; aceleași date sunt în tabelul de sub el.',
    periods: { hour: 'oră', day: 'zi', month: 'lună' },
    failed: 'Încărcarea utilizării a eșuat',
    clickHint: 'Selectați o coloană pentru a-i deschide evenimentele în jurnalul de audit.',
    keyboard: 'Săgețile trec de la o perioadă la alta și, în sus sau în jos, între coloanele perioadei.',
    keyboardOpens:
      'Săgețile trec de la o perioadă la alta și, în sus sau în jos, între coloanele perioadei; Enter deschide evenimentele ei în jurnalul de audit.',
    downloadCsv: 'Descărcați CSV',
  },
  keys: {
    issued: 'Înregistrări (issued)',
    oidc: 'Conectări (oidc)',
    jwt: 'Tokenuri ID (jwt)',
    'dvs-auth': 'Autentificare DVS',
    'dvs-verify': 'Verificare DVS',
    'reg-code': 'QuickCode-uri (reg-code)',
  },
  table: {
    show: 'Afișați datele sub formă de tabel',
    hide: 'Ascundeți tabelul',
    periodsLabel: 'Utilizare pe {{period}}',
    period: 'Perioadă',
    countriesLabel: 'Evenimente pe țări',
    country: 'Țară',
    events: 'Evenimente',
    openAudit: 'Deschideți în jurnalul de audit evenimentele pentru {{what}}',
  },
  map: {
    title: 'Evenimente pe țări',
    label: 'Harta lumii cu evenimentele pe țări, de la {{from}} la {{to}}; aceleași date sunt în tabelul de sub ea.',
    none: 'Niciun eveniment cu locație cunoscută în această perioadă.',
    failed: 'Încărcarea locațiilor a eșuat',
    unknown: 'Locație necunoscută',
    keyboard: 'Săgețile parcurg țările cu evenimente, de la cea mai activă.',
    keyboardOpens: 'Săgețile parcurg țările cu evenimente, de la cea mai activă; Enter deschide evenimentele țării alese în jurnalul de audit.',
  },
  enrollment: {
    title: 'Adoptarea cheilor de acces',
    intro: 'Chei de acces oferite după o conectare prin cod, link sau QuickCode și câți dintre utilizatori au una (zile UTC întregi).',
    failed: 'Cifrele de adoptare nu au putut fi încărcate',
    offers: 'Oferte după o conectare de rezervă',
    shown: 'Afișate',
    created: 'Cheie de acces creată',
    declined: 'Nu acum',
    signIns: 'Conectări',
    passkeySignIns: 'Cu o cheie de acces',
    fallbackSignIns: 'Prin cod, link sau QuickCode',
    activeUsers: 'Utilizatori conectați în această perioadă',
    withPasskey: 'Care au o cheie de acces',
    ceremonies: 'Ceremonii cu cheie de acces',
    completed: 'Finalizate din începute',
    ofTotal: '{{part}} din {{whole}}',
    percent: '{{n}}%',
    openAudit: '{{what}}: {{n}}, deschideți aceste evenimente în jurnalul de audit',
  },
  projects: {
    title: 'Cele mai active proiecte',
    label: 'Proiectele cu cele mai multe evenimente',
    project: 'Proiect',
    none: 'Niciun proiect nu a fost utilizat în această perioadă.',
  },
};
