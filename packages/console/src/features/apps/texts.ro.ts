import type { Translation } from '../../lib/i18n/translation.ts';
import type { appsTexts } from './texts.en.ts';

/** The applications pages in Romanian (namespace `apps`). */
export const appsTextsRo: Translation<typeof appsTexts, 'ro'> = {
  list: {
    intro: 'Clienții OpenID Connect prin care utilizatorii dumneavoastră se conectează în acest proiect.',
    add: 'Adăugați o aplicație',
    label: 'Aplicații',
    name: 'Nume',
    type: 'Tip',
    enabled: 'Activată',
    settings: 'Setări',
    settingsOf: 'Setări pentru {{name}}',
  },
  form: {
    name: 'Nume',
    type: 'Tip',
    applicationType: 'Tipul aplicației',
    applicationTypes: {
      web: { label: 'Aplicație web', help: 'Rulează pe un server care păstrează secretul clientului (un client confidențial).' },
      spa: { label: 'Aplicație cu o singură pagină', help: 'Rulează în browser fără secret; se autentifică cu PKCE.' },
      native: {
        label: 'Aplicație nativă',
        help: 'O aplicație mobilă, desktop sau în linie de comandă; revine la propria schemă, la o adresă https revendicată sau la o adresă loopback.',
      },
    },
    projectId: 'ID proiect',
    clientId: 'ID client',
    issuer: 'Emitent',
    discoveryUrl: 'URL de descoperire',
    accountPageUrl: 'URL-ul paginii de cont',
    accountPageUrlHelp: 'Trimiteți-vă utilizatorii aici: își gestionează cheile de acces și sesiunile în care sunt conectați.',
    redirectUrls: 'URL-uri de redirecționare',
    redirectUrlsHelp:
      'Adresele la care utilizatorii sunt trimiși înapoi după conectare, de exemplu https://app.example.com/callback sau com.example.app:/callback. O cerere de conectare trebuie să indice exact una dintre ele.',
    redirectUrl: 'URL de redirecționare {{n}}',
    addRedirectUrl: 'Adăugați un URL de redirecționare',
    removeRedirectUrl: 'Eliminați URL-ul de redirecționare {{n}}',
    postLogoutUrls: 'URL-uri de redirecționare după deconectare',
    postLogoutUrlsHelp:
      'Adresele la care aplicația dumneavoastră poate trimite utilizatorii după ce i-a deconectat la emitent (post_logout_redirect_uri), potrivite exact. Opțional.',
    postLogoutUrl: 'URL de redirecționare după deconectare {{n}}',
    addPostLogoutUrl: 'Adăugați un URL de redirecționare după deconectare',
    removePostLogoutUrl: 'Eliminați URL-ul de redirecționare după deconectare {{n}}',
    backchannelLogoutUrl: 'URL de deconectare back-channel',
    backchannelLogoutUrlHelp:
      'Adresa serverului dumneavoastră la care emitentul trimite un token de deconectare semnat când se încheie sesiunea unui utilizator (se deconectează sau cheia sa de acces este revocată). Opțional.',
  },
  create: {
    intro: 'Un client OpenID Connect cu URL-urile sale de redirecționare. Secretul client este afișat o singură dată, imediat după creare.',
    submit: 'Creați',
    keysFailedTitle: 'Aplicația a fost creată fără chei',
    keysFailedText:
      '„{{name}}” există, dar ID-ul client și secretul nu au putut fi create. Încercați din nou cu „Creați” sau deschideți setările aplicației pentru a le crea mai târziu.',
    openSettings: 'Deschideți setările',
  },
  secret: {
    title: 'Secret client',
    intro: 'Aplicația dumneavoastră conectează utilizatorii cu acest ID client și acest secret.',
    clientId: 'ID client',
    clientSecret: 'Secret client',
  },
  settings: {
    status: 'Stare',
    enabled: 'Activată',
    disabled: 'Dezactivată',
    disabledNote:
      'Această aplicație este dezactivată: utilizatorii nu se pot conecta prin ea, iar setările ei nu pot fi modificate până când nu este activată din nou.',
    noKeysTitle: 'Această aplicație nu are încă chei',
    noKeysText: 'Verificați URL-urile de redirecționare și creați ID-ul client și secretul. Secretul este afișat o singură dată.',
    createKeys: 'Creați cheile',
    generateTitle: 'Secret client nou',
    generateText: 'Înlocuiește secretul client. Secretul actual încetează imediat să funcționeze.',
    generate: 'Generați chei noi',
    generateConfirmTitle: 'Generați chei noi',
    generateConfirmText:
      'Secretul client actual al aplicației „{{name}}” încetează imediat să funcționeze; trebuie înlocuit peste tot unde este folosit. Noul secret este afișat o singură dată.',
    generateConfirm: 'Generați',
    disableTitle: 'Dezactivare',
    disableText: 'Utilizatorii nu se mai pot conecta prin această aplicație până când este activată din nou.',
    disable: 'Dezactivați aplicația',
    disableConfirmTitle: 'Dezactivați aplicația',
    disableConfirmText: 'Utilizatorii nu se vor mai putea conecta prin „{{name}}”, iar setările ei nu pot fi modificate cât timp este dezactivată.',
    disableConfirm: 'Dezactivați',
    enableTitle: 'Activare',
    enableText: 'Utilizatorii se pot conecta din nou prin această aplicație.',
    enable: 'Activați aplicația',
    enableConfirmTitle: 'Activați aplicația',
    enableConfirmText: 'Utilizatorii se vor putea conecta din nou prin „{{name}}”.',
    enableConfirm: 'Activați',
    loadFailed: 'Aplicația nu a putut fi încărcată',
  },
};
