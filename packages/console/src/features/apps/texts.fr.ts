import type { Translation } from '../../lib/i18n/translation.ts';
import type { appsTexts } from './texts.en.ts';

/** The applications pages in French (namespace `apps`). */
export const appsTextsFr: Translation<typeof appsTexts, 'fr'> = {
  list: {
    intro: 'Les clients OpenID Connect qui connectent vos utilisateurs via ce projet.',
    add: 'Ajouter une application',
    label: 'Applications',
    name: 'Nom',
    type: 'Type',
    enabled: 'Activée',
    settings: 'Paramètres',
    settingsOf: 'Paramètres de {{name}}',
  },
  form: {
    name: 'Nom',
    type: 'Type',
    applicationType: 'Type d’application',
    applicationTypes: {
      web: { label: 'Application web', help: 'S’exécute sur un serveur qui garde le secret client (un client confidentiel).' },
      spa: { label: 'Application monopage', help: 'S’exécute dans le navigateur sans secret ; se connecte avec PKCE.' },
      native: {
        label: 'Application native',
        help: 'Une application mobile, de bureau ou en ligne de commande ; revient à son propre schéma, à une adresse https revendiquée ou à une adresse de bouclage.',
      },
    },
    projectId: 'ID du projet',
    clientId: 'ID client',
    issuer: 'Émetteur',
    discoveryUrl: 'URL de découverte',
    accountPageUrl: 'URL de la page de compte',
    accountPageUrlHelp: 'Envoyez-y vos utilisateurs : ils y gèrent leurs clés d’accès et les sessions où ils sont connectés.',
    redirectUrls: 'URL de redirection',
    redirectUrlsHelp:
      'Adresses vers lesquelles les utilisateurs sont renvoyés après la connexion, par exemple https://app.example.com/callback ou com.example.app:/callback. Une demande de connexion doit indiquer exactement l’une d’elles.',
    redirectUrl: 'URL de redirection {{n}}',
    addRedirectUrl: 'Ajouter une URL de redirection',
    removeRedirectUrl: 'Supprimer l’URL de redirection {{n}}',
    postLogoutUrls: 'URL de redirection après déconnexion',
    postLogoutUrlsHelp:
      'Adresses vers lesquelles votre application peut envoyer les utilisateurs après les avoir déconnectés auprès de l’émetteur (post_logout_redirect_uri), à l’identique. Facultatif.',
    postLogoutUrl: 'URL de redirection après déconnexion {{n}}',
    addPostLogoutUrl: 'Ajouter une URL de redirection après déconnexion',
    removePostLogoutUrl: 'Supprimer l’URL de redirection après déconnexion {{n}}',
    backchannelLogoutUrl: 'URL de déconnexion back-channel',
    backchannelLogoutUrlHelp:
      'Adresse de votre serveur à laquelle l’émetteur envoie un jeton de déconnexion signé quand la session d’un utilisateur prend fin (il se déconnecte, ou sa clé d’accès est révoquée). Facultatif.',
  },
  create: {
    intro: 'Un client OpenID Connect avec ses URL de redirection. Son secret client n’est affiché qu’une fois, juste après sa création.',
    submit: 'Créer',
    keysFailedTitle: 'L’application a été créée sans ses clés',
    keysFailedText:
      '«\u202f{{name}}\u202f» existe, mais son ID client et son secret n’ont pas pu être générés. Réessayez avec «\u202fCréer\u202f», ou ouvrez ses paramètres pour les créer plus tard.',
    openSettings: 'Ouvrir ses paramètres',
  },
  secret: {
    title: 'Secret client',
    intro: 'Votre application connecte les utilisateurs avec cet ID client et ce secret.',
    clientId: 'ID client',
    clientSecret: 'Secret client',
  },
  settings: {
    status: 'Statut',
    enabled: 'Activée',
    disabled: 'Désactivée',
    disabledNote:
      'Cette application est désactivée\u202f: les utilisateurs ne peuvent pas se connecter par son intermédiaire et ses paramètres ne peuvent pas être modifiés tant qu’elle n’est pas réactivée.',
    noKeysTitle: 'Cette application n’a pas encore de clés',
    noKeysText: 'Vérifiez ses URL de redirection et créez son ID client et son secret. Le secret n’est affiché qu’une fois.',
    createKeys: 'Créer les clés',
    generateTitle: 'Nouveau secret client',
    generateText: 'Remplace le secret client. Le secret actuel cesse immédiatement de fonctionner.',
    generate: 'Générer de nouvelles clés',
    generateConfirmTitle: 'Générer de nouvelles clés',
    generateConfirmText:
      'Le secret client actuel de «\u202f{{name}}\u202f» cesse immédiatement de fonctionner\u202f; il doit être remplacé partout où il est utilisé. Le nouveau secret n’est affiché qu’une fois.',
    generateConfirm: 'Générer',
    disableTitle: 'Désactivation',
    disableText: 'Les utilisateurs ne peuvent plus se connecter via cette application jusqu’à ce qu’elle soit réactivée.',
    disable: 'Désactiver l’application',
    disableConfirmTitle: 'Désactiver l’application',
    disableConfirmText:
      'Les utilisateurs ne pourront plus se connecter via «\u202f{{name}}\u202f», et ses paramètres ne peuvent pas être modifiés tant qu’elle est désactivée.',
    disableConfirm: 'Désactiver',
    enableTitle: 'Activation',
    enableText: 'Les utilisateurs peuvent de nouveau se connecter via cette application.',
    enable: 'Activer l’application',
    enableConfirmTitle: 'Activer l’application',
    enableConfirmText: 'Les utilisateurs pourront de nouveau se connecter via «\u202f{{name}}\u202f».',
    enableConfirm: 'Activer',
    loadFailed: 'L’application n’a pas pu être chargée',
  },
};
