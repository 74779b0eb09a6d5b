import type { Translation } from '../../lib/i18n/translation.ts';
import type { searchTexts } from './texts.en.ts';

/** The command palette in French (namespace `search`). */
export const searchTextsFr: Translation<typeof searchTexts, 'fr'> = {
  title: 'Tout trouver',
  label: 'Rechercher par nom ou ID, ou accéder à une page',
  placeholder: 'Projet, application, client id, compte, utilisateur, mpinId, ID d’événement…',
  help: 'Saisissez pour rechercher. ↑ et ↓ pour se déplacer, Entrée pour ouvrir, Échap pour fermer.',
  pages: 'Pages',
  kinds: {
    project: 'Projets',
    app: 'Applications',
    account: 'Comptes',
    user: 'Utilisateurs',
    device: 'Appareils',
    audit: 'Événements d’audit',
  },
  searching: 'Recherche en cours…',
  noResults: 'Aucun résultat',
  failed: 'La recherche a échoué. Réessayez.',
  resultCount_one: '{{count}} résultat',
  resultCount_many: '{{count}} de résultats',
  resultCount_other: '{{count}} résultats',
  closed: 'Fermé',
  disabled: 'Désactivée',
  inactive: 'Inactif',
  revoked: 'Révoqué',
  blocked: 'Bloqué',
  serviceAccount: 'Compte de service',
  inProject: 'dans {{project}}',
  shortcut: 'Ctrl K',
  close: 'Fermer',
};
