import type { Translation } from '../../lib/i18n/translation.ts';
import type { searchTexts } from './texts.en.ts';

/** The command palette in Romanian (namespace `search`). */
export const searchTextsRo: Translation<typeof searchTexts, 'ro'> = {
  title: 'Găsiți orice',
  label: 'Căutați după nume sau ID ori accesați o pagină',
  placeholder: 'Proiect, aplicație, client id, cont, utilizator, mpinId, ID de eveniment…',
  help: 'Tastați pentru a căuta. ↑ și ↓ pentru deplasare, Enter pentru deschidere, Esc pentru închidere.',
  pages: 'Pagini',
  kinds: {
    project: 'Proiecte',
    app: 'Aplicații',
    account: 'Conturi',
    user: 'Utilizatori',
    device: 'Dispozitive',
    audit: 'Evenimente de audit',
  },
  searching: 'Se caută…',
  noResults: 'Niciun rezultat',
  failed: 'Căutarea a eșuat. Încercați din nou.',
  resultCount_one: '{{count}} rezultat',
  resultCount_few: '{{count}} rezultate',
  resultCount_other: '{{count}} de rezultate',
  closed: 'Închis',
  disabled: 'Dezactivată',
  inactive: 'Inactiv',
  revoked: 'Revocat',
  blocked: 'Blocat',
  serviceAccount: 'Cont de serviciu',
  inProject: 'în {{project}}',
  shortcut: 'Ctrl K',
  close: 'Închideți',
};
