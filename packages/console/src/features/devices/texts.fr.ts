import type { Translation } from '../../lib/i18n/translation.ts';
import type { devicesTexts } from './texts.en.ts';

/** The devices page in French (namespace `devices`). */
export const devicesTextsFr: Translation<typeof devicesTexts, 'fr'> = {
  list: {
    intro:
      'Les clés d’accès enregistrées par vos utilisateurs, par date de création. Révoquez celle qui est perdue ou qui n’est plus digne de confiance.',
    label: 'Appareils',
    email: 'E-mail',
    userId: 'Identifiant',
    deviceName: 'Nom de l’appareil',
    ip: 'Adresse IP',
    createdAt: 'Créé le',
    status: 'Statut',
    active: 'Actif',
    revoked: 'Révoqué',
    actions: 'Actions',
    revoke: 'Révoquer',
    revokeOf: 'Révoquer {{device}} de {{user}}',
    noAddress: 'Inconnue',
  },
  revoke: {
    title: 'Révoquer l’appareil',
    text: 'Voulez-vous révoquer l’appareil «\u202f{{device}}\u202f» de {{user}}\u202f? Sa clé d’accès cesse immédiatement de permettre la connexion et ses sessions de connexion prennent fin. Cette action est irréversible.',
    confirm: 'Révoquer',
  },
  bulk: {
    open: 'Révoquer tous les appareils correspondants',
    none: 'Aucun appareil actif ne correspond au filtre\u202f: rien à révoquer.',
    countFailed: 'Échec du décompte des appareils à révoquer',
    title_one: 'Révoquer {{number}} appareil',
    title_many: 'Révoquer {{number}} d’appareils',
    title_other: 'Révoquer {{number}} appareils',
    text_one:
      '{{number}} appareil actif correspondant au filtre actuel, enregistré jusqu’au {{until}} UTC, sera révoqué\u202f: sa clé d’accès cesse immédiatement de permettre la connexion et ses sessions de connexion prennent fin. Cette action est irréversible.',
    text_many:
      'Les {{number}} d’appareils actifs correspondant au filtre actuel, enregistrés jusqu’au {{until}} UTC, seront révoqués\u202f: leurs clés d’accès cessent immédiatement de permettre la connexion et leurs sessions de connexion prennent fin. Cette action est irréversible.',
    text_other:
      'Les {{number}} appareils actifs correspondant au filtre actuel, enregistrés jusqu’au {{until}} UTC, seront révoqués\u202f: leurs clés d’accès cessent immédiatement de permettre la connexion et leurs sessions de connexion prennent fin. Cette action est irréversible.',
    confirm_one: 'Révoquer {{number}} appareil',
    confirm_many: 'Révoquer {{number}} d’appareils',
    confirm_other: 'Révoquer {{number}} appareils',
    runningTitle: 'Révocation des appareils',
    progress: '{{revoked}} sur {{total}} révoqués',
    resumable:
      'Chaque appareil révoqué le reste. Si l’opération s’interrompt, relancez «\u202fRévoquer tous les appareils correspondants\u202f» pour terminer le reste.',
    stop: 'Arrêter',
    done_one: '{{revoked}} appareil révoqué',
    done_many: '{{revoked}} d’appareils révoqués',
    done_other: '{{revoked}} appareils révoqués',
    stopped:
      'Opération arrêtée après la révocation de {{revoked}} appareils sur {{total}}. Relancez «\u202fRévoquer tous les appareils correspondants\u202f» pour terminer.',
    failed: '{{revoked}} appareils sur {{total}} révoqués, puis échec',
  },
};
