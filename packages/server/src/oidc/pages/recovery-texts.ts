import type { PageLanguage } from './texts.ts';

/**
 * Every text of account recovery (issue 37, docs/decisions/0051): the account page's recovery codes,
 * the sign-in page's "Use a recovery code", the re-enrollment link's page, "This wasn't me", and the
 * notices mailed to the person. One table per language as the other pages' (a key missing in one is
 * a type error); plain text, escaped by the pages.
 */
export interface RecoveryTexts {
  codesHeading: string;
  codesIntro: string;
  codesLeft(left: number, total: number): string;
  noCodes: string;
  createCodes: string;
  replaceCodes: string;
  codesShownHeading: string;
  codesShownText: string;
  download: string;
  useCodeLink: string;
  useCodeHeading: string;
  useCodeHint: string;
  codeLabel: string;
  codeFormat: string;
  codeRefused: string;
  tooManyTries: string;
  continue: string;
  delayHeading: string;
  /** The account page's answer while the delay runs; `mailed`: the person has an address the notice went to. */
  delayText(until: string, mailed: boolean): string;
  notMeHeading: string;
  notMeText: string;
  notMeButton: string;
  notMeDone: string;
  notMeGone: string;
  reenrollHeading(name: string): string;
  reenrollText(identity: string): string;
  reenrollGone: string;
  reenrollDone: string;
  mail: {
    codeUsedSubject(name: string): string;
    codeUsedText(name: string, left: number): string;
    emailSignInSubject(name: string): string;
    emailSignInText(name: string): string;
    /** A sign-in by the project's own verification (docs/decisions/0051), not by something sent to this address. */
    customSignInSubject(name: string): string;
    customSignInText(name: string): string;
    delayText(until: string, link: string): string;
    notMeIgnore: string;
  };
}

const en: RecoveryTexts = {
  codesHeading: 'Recovery codes',
  codesIntro: 'If you lose every passkey, a recovery code signs you in once so you can create a new one. Keep them somewhere safe.',
  codesLeft: (left, total) => `${left} of ${total} recovery codes left.`,
  noCodes: 'You have no recovery codes.',
  createCodes: 'Create recovery codes',
  replaceCodes: 'Create new recovery codes',
  codesShownHeading: 'Your recovery codes',
  codesShownText: 'Each code works once. They are shown only now: download or write them down. Creating new codes makes these stop working.',
  download: 'Download as a text file',
  useCodeLink: 'Use a recovery code',
  useCodeHeading: 'Sign in with a recovery code',
  useCodeHint: 'Type your address and one of the recovery codes you saved. You then create a new passkey.',
  codeLabel: 'Recovery code',
  codeFormat: 'A recovery code is 10 letters and digits, such as ABCDE-23456.',
  codeRefused: 'This address and recovery code do not match, or the code was used already.',
  tooManyTries: 'Too many tries. Wait a while and try again.',
  continue: 'Continue',
  delayHeading: 'A new passkey has to wait',
  delayText: (until, mailed) =>
    `You signed in without one of your passkeys. To protect your account, a new passkey can be added from ${until}.${mailed ? ' We emailed you about it.' : ''}`,
  notMeHeading: 'Was this not you?',
  notMeText: 'Stop the recovery of your account: no passkey can be added with it.',
  notMeButton: 'Stop the recovery',
  notMeDone: 'The recovery was stopped. No passkey can be added with it.',
  notMeGone: 'This link was used already or is not valid.',
  reenrollHeading: (name) => `Create a passkey for ${name}`,
  reenrollText: (identity) => `An administrator gave you this link to create a new passkey for ${identity} on this device.`,
  reenrollGone: 'This link was used already, has expired or is not valid. Ask your administrator for a new one.',
  reenrollDone: 'Your new passkey is ready. You can sign in with it now.',
  mail: {
    codeUsedSubject: (name) => `A recovery code was used for your ${name} account`,
    codeUsedText: (name, left) =>
      `Someone signed in to your ${name} account with a recovery code to create a new passkey. You have ${left} recovery code${left === 1 ? '' : 's'} left.\n\nIf this wasn't you, contact ${name}'s support at once.`,
    emailSignInSubject: (name) => `New sign-in to your ${name} account by email`,
    emailSignInText: (name) => `Someone signed in to your ${name} account with a code sent to this address, not with one of your passkeys.`,
    customSignInSubject: (name) => `New sign-in to your ${name} account without a passkey`,
    customSignInText: (name) => `Someone signed in to your ${name} account through ${name}'s own verification, not with one of your passkeys.`,
    delayText: (until, link) => `A new passkey can be added to your account from ${until}.\n\nThis wasn't me: ${link}`,
    notMeIgnore: 'If this was you, there is nothing to do.',
  },
};

const fr: RecoveryTexts = {
  codesHeading: 'Codes de récupération',
  codesIntro:
    'Si vous perdez toutes vos clés d’accès, un code de récupération vous connecte une fois pour en créer une nouvelle. Gardez-les en lieu sûr.',
  codesLeft: (left, total) => `Il vous reste ${left} codes de récupération sur ${total}.`,
  noCodes: 'Vous n’avez aucun code de récupération.',
  createCodes: 'Créer des codes de récupération',
  replaceCodes: 'Créer de nouveaux codes de récupération',
  codesShownHeading: 'Vos codes de récupération',
  codesShownText:
    'Chaque code ne sert qu’une fois. Ils ne sont affichés que maintenant : téléchargez-les ou notez-les. En créer de nouveaux rend ceux-ci inutilisables.',
  download: 'Télécharger en fichier texte',
  useCodeLink: 'Utiliser un code de récupération',
  useCodeHeading: 'Se connecter avec un code de récupération',
  useCodeHint: 'Saisissez votre adresse et l’un des codes de récupération enregistrés. Vous créerez ensuite une nouvelle clé d’accès.',
  codeLabel: 'Code de récupération',
  codeFormat: 'Un code de récupération compte 10 lettres et chiffres, par exemple ABCDE-23456.',
  codeRefused: 'Cette adresse et ce code ne correspondent pas, ou le code a déjà servi.',
  tooManyTries: 'Trop d’essais. Patientez un moment puis réessayez.',
  continue: 'Continuer',
  delayHeading: 'Une nouvelle clé d’accès doit attendre',
  delayText: (until, mailed) =>
    `Vous vous êtes connecté sans l’une de vos clés d’accès. Pour protéger votre compte, une nouvelle clé d’accès pourra être ajoutée à partir du ${until}.${mailed ? ' Nous vous avons prévenu par e-mail.' : ''}`,
  notMeHeading: 'Ce n’était pas vous ?',
  notMeText: 'Arrêtez la récupération de votre compte : aucune clé d’accès ne pourra être ajoutée par elle.',
  notMeButton: 'Arrêter la récupération',
  notMeDone: 'La récupération a été arrêtée. Aucune clé d’accès ne pourra être ajoutée par elle.',
  notMeGone: 'Ce lien a déjà servi ou n’est pas valide.',
  reenrollHeading: (name) => `Créer une clé d’accès pour ${name}`,
  reenrollText: (identity) => `Un administrateur vous a donné ce lien pour créer une nouvelle clé d’accès pour ${identity} sur cet appareil.`,
  reenrollGone: 'Ce lien a déjà servi, a expiré ou n’est pas valide. Demandez-en un nouveau à votre administrateur.',
  reenrollDone: 'Votre nouvelle clé d’accès est prête. Vous pouvez vous connecter avec elle.',
  mail: {
    codeUsedSubject: (name) => `Un code de récupération a servi pour votre compte ${name}`,
    codeUsedText: (name, left) =>
      `Quelqu’un s’est connecté à votre compte ${name} avec un code de récupération pour créer une nouvelle clé d’accès. Il vous reste ${left} codes de récupération.\n\nSi ce n’était pas vous, contactez immédiatement l’assistance de ${name}.`,
    emailSignInSubject: (name) => `Nouvelle connexion par e-mail à votre compte ${name}`,
    emailSignInText: (name) =>
      `Quelqu’un s’est connecté à votre compte ${name} avec un code envoyé à cette adresse, et non avec l’une de vos clés d’accès.`,
    customSignInSubject: (name) => `Nouvelle connexion sans clé d’accès à votre compte ${name}`,
    customSignInText: (name) =>
      `Quelqu’un s’est connecté à votre compte ${name} par la vérification propre de ${name}, et non avec l’une de vos clés d’accès.`,
    delayText: (until, link) => `Une nouvelle clé d’accès pourra être ajoutée à votre compte à partir du ${until}.\n\nCe n’était pas moi : ${link}`,
    notMeIgnore: 'Si c’était vous, vous n’avez rien à faire.',
  },
};

const ro: RecoveryTexts = {
  codesHeading: 'Coduri de recuperare',
  codesIntro: 'Dacă pierdeți toate cheile de acces, un cod de recuperare vă conectează o dată ca să creați una nouă. Păstrați-le într-un loc sigur.',
  codesLeft: (left, total) => `Mai aveți ${left} din ${total} coduri de recuperare.`,
  noCodes: 'Nu aveți coduri de recuperare.',
  createCodes: 'Creați coduri de recuperare',
  replaceCodes: 'Creați coduri de recuperare noi',
  codesShownHeading: 'Codurile dvs. de recuperare',
  codesShownText:
    'Fiecare cod funcționează o singură dată. Sunt afișate doar acum: descărcați-le sau notați-le. Dacă creați coduri noi, acestea nu mai funcționează.',
  download: 'Descărcați ca fișier text',
  useCodeLink: 'Folosiți un cod de recuperare',
  useCodeHeading: 'Conectați-vă cu un cod de recuperare',
  useCodeHint: 'Introduceți adresa și unul dintre codurile de recuperare salvate. Apoi creați o cheie de acces nouă.',
  codeLabel: 'Cod de recuperare',
  codeFormat: 'Un cod de recuperare are 10 litere și cifre, de exemplu ABCDE-23456.',
  codeRefused: 'Adresa și codul nu se potrivesc sau codul a fost deja folosit.',
  tooManyTries: 'Prea multe încercări. Așteptați puțin și încercați din nou.',
  continue: 'Continuați',
  delayHeading: 'O cheie de acces nouă trebuie să aștepte',
  delayText: (until, mailed) =>
    `V-ați conectat fără una dintre cheile dvs. de acces. Pentru a vă proteja contul, o cheie de acces nouă poate fi adăugată începând cu ${until}.${mailed ? ' V-am anunțat prin e-mail.' : ''}`,
  notMeHeading: 'Nu ați fost dvs.?',
  notMeText: 'Opriți recuperarea contului: nicio cheie de acces nu mai poate fi adăugată prin ea.',
  notMeButton: 'Opriți recuperarea',
  notMeDone: 'Recuperarea a fost oprită. Nicio cheie de acces nu mai poate fi adăugată prin ea.',
  notMeGone: 'Acest link a fost deja folosit sau nu este valid.',
  reenrollHeading: (name) => `Creați o cheie de acces pentru ${name}`,
  reenrollText: (identity) => `Un administrator v-a dat acest link pentru a crea o cheie de acces nouă pentru ${identity} pe acest dispozitiv.`,
  reenrollGone: 'Acest link a fost deja folosit, a expirat sau nu este valid. Cereți unul nou administratorului.',
  reenrollDone: 'Cheia de acces nouă este gata. Vă puteți conecta cu ea acum.',
  mail: {
    codeUsedSubject: (name) => `Un cod de recuperare a fost folosit pentru contul dvs. ${name}`,
    codeUsedText: (name, left) =>
      `Cineva s-a conectat la contul dvs. ${name} cu un cod de recuperare pentru a crea o cheie de acces nouă. Mai aveți ${left} coduri de recuperare.\n\nDacă nu ați fost dvs., contactați imediat asistența ${name}.`,
    emailSignInSubject: (name) => `Conectare nouă prin e-mail la contul dvs. ${name}`,
    emailSignInText: (name) =>
      `Cineva s-a conectat la contul dvs. ${name} cu un cod trimis la această adresă, nu cu una dintre cheile dvs. de acces.`,
    customSignInSubject: (name) => `Conectare nouă fără cheie de acces la contul dvs. ${name}`,
    customSignInText: (name) =>
      `Cineva s-a conectat la contul dvs. ${name} prin verificarea proprie a ${name}, nu cu una dintre cheile dvs. de acces.`,
    delayText: (until, link) => `O cheie de acces nouă poate fi adăugată contului dvs. începând cu ${until}.\n\nNu am fost eu: ${link}`,
    notMeIgnore: 'Dacă ați fost dvs., nu trebuie să faceți nimic.',
  },
};

export const RECOVERY_TEXTS: Record<PageLanguage, RecoveryTexts> = { en, fr, ro };
