import type { PageLanguage } from '../oidc/pages/texts.ts';

/** How a person verifies their identity when they have no passkey (spec §2, docs/decisions/0018): what the last passkey's warning names. */
export type FallbackVerification = 'code' | 'link' | 'custom';

/**
 * Every text of the account page at a project's issuer (`{issuer}/account`, issue 24): the end
 * user's passkeys and sessions. One table per language, as the sign-in pages' (texts.ts); a key
 * missing in one of them is a type error. Plain text: the page escapes it.
 */
export interface AccountTexts {
  title: string;
  heading(name: string): string;
  signedInAs(identity: string): string;
  passkeysHeading: string;
  passkeysIntro: string;
  noPasskeys: string;
  created: string;
  lastUsed: string;
  where: string;
  never: string;
  unknownPlace: string;
  thisSignIn: string;
  /** docs/decisions/0050: where a passkey is kept (its backup flags), and the nudge to a second one. */
  kept: string;
  synced: string;
  deviceBound: string;
  secondPasskey: string;
  rename: string;
  nameLabel: string;
  save: string;
  invalidName: string;
  remove: string;
  removeHeading: string;
  removeText(device: string): string;
  removeLast(fallback: FallbackVerification): string;
  removeSignsOutHere: string;
  keep: string;
  addHeading: string;
  addPasskeyText: string;
  addPasskey: string;
  addQuickCodeText: string;
  addQuickCode: string;
  quickCodeNotFromThisPasskey: string;
  backToAccount: string;
  sessionsHeading: string;
  thisBrowser: string;
  otherSession: string;
  startedAt: string;
  expires: string;
  passkey: string;
  applications: string;
  accountPage: string;
  none: string;
  signOutSession: string;
  signOutOthers: string;
  noOtherSessions: string;
  signOutHere: string;
  signedOutHeading: string;
  signedOutText: string;
  signInAgain: string;
  notSignedInHeading: string;
  notSignedInText: string;
  done: {
    renamed: string;
    removed: string;
    added: string;
    signedOut: string;
    othersSignedOut: string;
  };
  staleForm: string;
  tooManyChanges: string;
  tooManyPasskeys(max: number): string;
}

const en: AccountTexts = {
  title: 'Your account',
  heading: (name) => `Your ${name} account`,
  signedInAs: (identity) => `Signed in as ${identity}`,
  passkeysHeading: 'Passkeys',
  passkeysIntro: 'You sign in with these passkeys. Remove one you no longer use or have lost.',
  noPasskeys: 'You have no passkey. Create one to sign in without waiting for a code.',
  created: 'Created',
  lastUsed: 'Last used',
  where: 'Where',
  never: 'Never',
  unknownPlace: 'Unknown',
  thisSignIn: 'Used to sign in here',
  kept: 'Kept',
  synced: 'Synced to your other devices',
  deviceBound: 'On this device only',
  secondPasskey:
    'Your passkeys are each kept on one device only. Add a second passkey (or one your password manager syncs) so you can still sign in if a device is lost.',
  rename: 'Rename',
  nameLabel: 'Passkey name',
  save: 'Save',
  invalidName: 'Enter a name of 1 to 64 characters',
  remove: 'Remove',
  removeHeading: 'Remove this passkey?',
  removeText: (device) => `You will no longer be able to sign in with “${device}”.`,
  removeLast: (fallback) =>
    `This is your last passkey. Your next sign-in will need ${
      fallback === 'link' ? 'a link sent to your email' : fallback === 'custom' ? 'your identity to be verified again' : 'a code sent to your email'
    }.`,
  removeSignsOutHere: 'You signed in here with this passkey: removing it also signs you out here.',
  keep: 'Keep it',
  addHeading: 'Add a device',
  addPasskeyText: 'Create another passkey, on this device or on a phone or security key near you.',
  addPasskey: 'Create a passkey',
  addQuickCodeText: 'Or get a QuickCode and type it on the other device when it signs in.',
  addQuickCode: 'Get a QuickCode',
  quickCodeNotFromThisPasskey: 'A QuickCode can only be issued after signing in with a passkey registered by verifying your identity.',
  backToAccount: 'Back to your account',
  sessionsHeading: 'Where you are signed in',
  thisBrowser: 'This browser',
  otherSession: 'Another browser or device',
  startedAt: 'Signed in',
  expires: 'Until',
  passkey: 'Passkey',
  applications: 'Applications',
  accountPage: 'This account page',
  none: 'None',
  signOutSession: 'Sign out',
  signOutOthers: 'Sign out everywhere else',
  noOtherSessions: 'You are not signed in anywhere else.',
  signOutHere: 'Sign out here',
  signedOutHeading: 'You signed out',
  signedOutText: 'You are no longer signed in on this browser.',
  signInAgain: 'Sign in again',
  notSignedInHeading: 'You did not sign in',
  notSignedInText: 'The sign-in to your account page did not finish.',
  done: {
    renamed: 'The passkey was renamed.',
    removed: 'The passkey was removed.',
    added: 'The passkey was created.',
    signedOut: 'That session was signed out.',
    othersSignedOut: 'You were signed out everywhere else.',
  },
  staleForm: 'This page was out of date. Try again.',
  tooManyChanges: 'Too many changes in a short time. Wait a few minutes, then try again.',
  tooManyPasskeys: (max) => `You have ${max} passkeys, the most an account may have. Remove one you no longer use first.`,
};

const fr: AccountTexts = {
  title: 'Votre compte',
  heading: (name) => `Votre compte ${name}`,
  signedInAs: (identity) => `Connecté en tant que ${identity}`,
  passkeysHeading: 'Clés d’accès',
  passkeysIntro: 'Vous vous connectez avec ces clés d’accès. Supprimez celles que vous n’utilisez plus ou avez perdues.',
  noPasskeys: 'Vous n’avez aucune clé d’accès. Créez-en une pour vous connecter sans attendre de code.',
  created: 'Créée',
  lastUsed: 'Dernière utilisation',
  where: 'Lieu',
  never: 'Jamais',
  unknownPlace: 'Inconnu',
  thisSignIn: 'Utilisée pour cette connexion',
  kept: 'Conservée',
  synced: 'Synchronisée avec vos autres appareils',
  deviceBound: 'Sur cet appareil uniquement',
  secondPasskey:
    'Chacune de vos clés d’accès n’est gardée que sur un seul appareil. Ajoutez-en une deuxième (ou une que votre gestionnaire de mots de passe synchronise) pour pouvoir vous connecter si un appareil est perdu.',
  rename: 'Renommer',
  nameLabel: 'Nom de la clé d’accès',
  save: 'Enregistrer',
  invalidName: 'Saisissez un nom de 1 à 64 caractères',
  remove: 'Supprimer',
  removeHeading: 'Supprimer cette clé d’accès ?',
  removeText: (device) => `Vous ne pourrez plus vous connecter avec « ${device} ».`,
  removeLast: (fallback) =>
    `C’est votre dernière clé d’accès. Votre prochaine connexion demandera ${
      fallback === 'link'
        ? 'un lien envoyé à votre adresse e-mail'
        : fallback === 'custom'
          ? 'une nouvelle vérification de votre identité'
          : 'un code envoyé à votre adresse e-mail'
    }.`,
  removeSignsOutHere: 'Vous vous êtes connecté ici avec cette clé d’accès : la supprimer vous déconnecte aussi ici.',
  keep: 'La garder',
  addHeading: 'Ajouter un appareil',
  addPasskeyText: 'Créez une autre clé d’accès, sur cet appareil ou sur un téléphone ou une clé de sécurité à proximité.',
  addPasskey: 'Créer une clé d’accès',
  addQuickCodeText: 'Ou obtenez un QuickCode et saisissez-le sur l’autre appareil lors de sa connexion.',
  addQuickCode: 'Obtenir un QuickCode',
  quickCodeNotFromThisPasskey:
    'Un QuickCode ne peut être obtenu qu’après une connexion avec une clé d’accès enregistrée en vérifiant votre identité.',
  backToAccount: 'Retour à votre compte',
  sessionsHeading: 'Où vous êtes connecté',
  thisBrowser: 'Ce navigateur',
  otherSession: 'Un autre navigateur ou appareil',
  startedAt: 'Connexion',
  expires: 'Jusqu’au',
  passkey: 'Clé d’accès',
  applications: 'Applications',
  accountPage: 'Cette page de compte',
  none: 'Aucune',
  signOutSession: 'Déconnecter',
  signOutOthers: 'Se déconnecter partout ailleurs',
  noOtherSessions: 'Vous n’êtes connecté nulle part ailleurs.',
  signOutHere: 'Se déconnecter ici',
  signedOutHeading: 'Vous êtes déconnecté',
  signedOutText: 'Vous n’êtes plus connecté sur ce navigateur.',
  signInAgain: 'Se reconnecter',
  notSignedInHeading: 'Vous ne vous êtes pas connecté',
  notSignedInText: 'La connexion à votre page de compte n’a pas abouti.',
  done: {
    renamed: 'La clé d’accès a été renommée.',
    removed: 'La clé d’accès a été supprimée.',
    added: 'La clé d’accès a été créée.',
    signedOut: 'Cette session a été déconnectée.',
    othersSignedOut: 'Vous avez été déconnecté partout ailleurs.',
  },
  staleForm: 'Cette page n’était plus à jour. Réessayez.',
  tooManyChanges: 'Trop de modifications en peu de temps. Attendez quelques minutes, puis réessayez.',
  tooManyPasskeys: (max) => `Vous avez ${max} clés d’accès, le maximum pour un compte. Supprimez d’abord celle que vous n’utilisez plus.`,
};

const ro: AccountTexts = {
  title: 'Contul dumneavoastră',
  heading: (name) => `Contul dumneavoastră ${name}`,
  signedInAs: (identity) => `Conectat ca ${identity}`,
  passkeysHeading: 'Chei de acces',
  passkeysIntro: 'Vă conectați cu aceste chei de acces. Eliminați-le pe cele pe care nu le mai folosiți sau le-ați pierdut.',
  noPasskeys: 'Nu aveți nicio cheie de acces. Creați una pentru a vă conecta fără să așteptați un cod.',
  created: 'Creată',
  lastUsed: 'Ultima utilizare',
  where: 'Locul',
  never: 'Niciodată',
  unknownPlace: 'Necunoscut',
  thisSignIn: 'Folosită pentru această conectare',
  kept: 'Păstrată',
  synced: 'Sincronizată pe celelalte dispozitive',
  deviceBound: 'Doar pe acest dispozitiv',
  secondPasskey:
    'Fiecare cheie de acces este păstrată pe un singur dispozitiv. Adăugați o a doua (sau una sincronizată de managerul de parole) ca să vă puteți conecta dacă pierdeți un dispozitiv.',
  rename: 'Redenumiți',
  nameLabel: 'Numele cheii de acces',
  save: 'Salvați',
  invalidName: 'Introduceți un nume de 1 până la 64 de caractere',
  remove: 'Eliminați',
  removeHeading: 'Eliminați această cheie de acces?',
  removeText: (device) => `Nu vă veți mai putea conecta cu „${device}”.`,
  removeLast: (fallback) =>
    `Aceasta este ultima dumneavoastră cheie de acces. Următoarea conectare va necesita ${
      fallback === 'link'
        ? 'un link trimis la adresa dumneavoastră de e-mail'
        : fallback === 'custom'
          ? 'o nouă verificare a identității'
          : 'un cod trimis la adresa dumneavoastră de e-mail'
    }.`,
  removeSignsOutHere: 'V-ați conectat aici cu această cheie de acces: eliminarea ei vă deconectează și de aici.',
  keep: 'Păstrați-o',
  addHeading: 'Adăugați un dispozitiv',
  addPasskeyText: 'Creați încă o cheie de acces, pe acest dispozitiv sau pe un telefon ori o cheie de securitate din apropiere.',
  addPasskey: 'Creați o cheie de acces',
  addQuickCodeText: 'Sau obțineți un QuickCode și introduceți-l pe celălalt dispozitiv când se conectează.',
  addQuickCode: 'Obțineți un QuickCode',
  quickCodeNotFromThisPasskey: 'Un QuickCode poate fi obținut doar după conectarea cu o cheie de acces înregistrată prin verificarea identității.',
  backToAccount: 'Înapoi la contul dumneavoastră',
  sessionsHeading: 'Unde sunteți conectat',
  thisBrowser: 'Acest browser',
  otherSession: 'Alt browser sau dispozitiv',
  startedAt: 'Conectare',
  expires: 'Până la',
  passkey: 'Cheie de acces',
  applications: 'Aplicații',
  accountPage: 'Această pagină de cont',
  none: 'Niciuna',
  signOutSession: 'Deconectați',
  signOutOthers: 'Deconectați-vă de peste tot în rest',
  noOtherSessions: 'Nu sunteți conectat în altă parte.',
  signOutHere: 'Deconectați-vă aici',
  signedOutHeading: 'V-ați deconectat',
  signedOutText: 'Nu mai sunteți conectat în acest browser.',
  signInAgain: 'Conectați-vă din nou',
  notSignedInHeading: 'Nu v-ați conectat',
  notSignedInText: 'Conectarea la pagina contului nu s-a încheiat.',
  done: {
    renamed: 'Cheia de acces a fost redenumită.',
    removed: 'Cheia de acces a fost eliminată.',
    added: 'Cheia de acces a fost creată.',
    signedOut: 'Acea sesiune a fost deconectată.',
    othersSignedOut: 'Ați fost deconectat de peste tot în rest.',
  },
  staleForm: 'Această pagină nu mai era actuală. Încercați din nou.',
  tooManyChanges: 'Prea multe modificări într-un timp scurt. Așteptați câteva minute, apoi încercați din nou.',
  tooManyPasskeys: (max) =>
    `Aveți ${max} chei de acces, cele mai multe pe care le poate avea un cont. Eliminați mai întâi una pe care nu o mai folosiți.`,
};

export const ACCOUNT_TEXTS: Record<PageLanguage, AccountTexts> = { en, fr, ro };
