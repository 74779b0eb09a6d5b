import { LANGUAGES } from '@latchkey/domain';

/** The languages of the hosted sign-in pages (spec §3 midentityLanguage: en, fr, ro). */
export type PageLanguage = (typeof LANGUAGES)[number];

type CodeRefusal = 'none' | 'used' | 'expired' | 'too_many' | 'address_locked' | 'wrong';

/**
 * Every text an end user reads on the sign-in pages or in the code's email. One table per language;
 * a key missing in one of them is a type error. Texts are plain text: the pages escape them.
 * `then` is the sentence that says what to do next (startAgainAtApp, startAgainAtConsole).
 */
export interface PageTexts {
  // Page 1: the address.
  signInTitle: string;
  signInTo(name: string): string;
  emailHint: string;
  /** The field's label when the project names none (spec §2 identityTypeLabel). */
  emailLabel: string;
  continue: string;
  cancel: string;
  invalidEmail: string;
  mailFailed: string;
  tooManyCodes: { interaction(then: string): string; address: string; client: string };
  // Page 2: the emailed code.
  codeTitle: string;
  codeSentTo(email: string): string;
  codeLabel: string;
  signIn: string;
  sendNewCode: string;
  useDifferentEmail: string;
  newCodeSent: string;
  codeFormat: string;
  codeErrors: Record<CodeRefusal, string>;
  /** A wrong code that was the last try. */
  wrongCodeLast: string;
  // docs/decisions/0052: an imported person's old password, once, instead of the code.
  passwordHeading: string;
  passwordHint: string;
  passwordLabel: string;
  passwordSignIn: string;
  wrongPassword: string;
  // Identity types and verification methods (docs/decisions/0018).
  /** Page 1's label for an alphanumeric user id when the project names none. */
  userIdLabel: string;
  invalidUserId: string;
  /** Page 1's hint when a new user is verified by an emailed link, by the project itself. */
  linkHint: string;
  customHint: string;
  linkTitle: string;
  linkSentTo(email: string): string;
  linkWait: string;
  linkMailFailed: string;
  sendNewLink: string;
  newLinkSent: string;
  linkNotOpened: string;
  linkUnusable(name: string): string;
  linkConfirmHeading: string;
  linkConfirmText(name: string, email: string, device: string): string;
  linkConfirm: string;
  linkVerifiedHeading: string;
  linkVerifiedText: string;
  linkMailSubject(name: string): string;
  linkMailText(name: string, link: string, minutes: number): string;
  customTitle: string;
  customIntro(name: string): string;
  customContinue: string;
  customNotConfirmed: string;
  cannotVerify(name: string): string;
  // Passkeys (docs/decisions/0013).
  passkeyTitle: string;
  usePasskeyFor(email: string): string;
  codeInstead: string;
  /** "…instead" when the project mails a link, or verifies users itself (docs/decisions/0018). */
  linkInstead: string;
  verifyInstead: string;
  /** A revoked passkey's page when the identity is not verified by email. */
  revokedTextVerify(name: string): string;
  /** "Use a different email" when page 1 asks for a user id. */
  useDifferentId: string;
  createPasskey: string;
  createPasskeyHint(name: string): string;
  notNow: string;
  /** docs/decisions/0050: the offer the project requires (no "Not now"), and the way on without WebAuthn. */
  passkeyRequiredHint(name: string): string;
  continueWithoutPasskey: string;
  passkeyRequiredError: string;
  /** The person's passkeys are all kept on one device each (not synced): a second one here. */
  secondPasskeyHint: string;
  noWebAuthn: string;
  passkeyNotCreated: string;
  passkeyNotUsed: string;
  passkeyUnknown: string;
  /** docs/decisions/0047: page 1's passkey is not one of this sign-in's. */
  passkeyUnknownHere: string;
  /** Page 1 (docs/decisions/0047): the cross-device (hybrid) request. */
  passkeyHybrid: string;
  /** Page 1: between the passkey buttons and the address (docs/decisions/0048). */
  orSeparator: string;
  /** The browser's dialog was dismissed, or this device has no passkey here (NotAllowedError). */
  passkeyCancelled: string;
  /** Page 1 in a browser without WebAuthn: the passkey buttons are hidden; this says why. */
  noWebAuthnHere: string;
  /** Page 1 passkey first (docs/decisions/0048): above its "Sign in with a passkey". */
  passkeyLead: string;
  /** docs/decisions/0048: at the console's sign-in, a passkey of an application's sign-in (same relying party). */
  passkeyNotForConsole: string;
  passkeyNotVerified: string;
  passkeyExists: string;
  revokedTitle: string;
  revokedHeading: string;
  revokedText(name: string): string;
  /** docs/decisions/0047: a passkey of this project made for another of its addresses (relying parties). */
  wrongPasskeyTitle: string;
  wrongPasskeyHeading: string;
  wrongPasskeyText(name: string): string;
  /** A blocked user's sign-in (issue 24): refused until the project's administrators unblock them. */
  blockedTitle: string;
  blockedHeading: string;
  blockedText(name: string): string;
  /** spec §3 enableBrowserWarning, on the page that creates a passkey (docs/decisions/0015). */
  browserWarningHeading: string;
  browserWarning: string;
  // The footer (spec §3 helpUrl, supportEmail, supportPhone).
  needHelp: string;
  help: string;
  // Problems and refusals.
  problemTitle: string;
  problemHeading: string;
  errorCode: string;
  backTo(name: string): string;
  badAddress(then: string): string;
  expired(then: string): string;
  serverError(then: string): string;
  startAgainAtApp: string;
  startAgainAtConsole: string;
  noSuchIssuer(then: string): string;
  invalidRequestHeading: string;
  invalidRequest(then: string): string;
  unregisteredRedirect: string;
  providerAnswered(reason: string, then: string): string;
  disabledHeading: string;
  disabledText: string;
  closedHeading: string;
  closedText: string;
  // Signing out (the console's own provider).
  signingOutTitle: string;
  signingOut: string;
  signOutQuestion(name: string): string;
  signOut: string;
  signedOutTitle: string;
  signedOutHeading: string;
  // QuickCode (spec §3 enableRegistrationCode; docs/decisions/0017).
  quickCodeTitle: string;
  quickCodeIssueHeading(name: string): string;
  quickCodeIssueIntro: string;
  quickCodeGet: string;
  quickCodeYours: string;
  quickCodeHowTo(name: string, minutes: number): string;
  quickCodeOff(name: string): string;
  quickCodeVerifiedOnly: string;
  quickCodeNoPasskey: string;
  haveQuickCode: string;
  quickCodeEnterHeading: string;
  quickCodeEnterHint: string;
  quickCodeLabel: string;
  quickCodeFormat: string;
  quickCodeRefused: string;
  tooManyTries: string;
  quickCodeAlso: string;
  /** Mobile Login (spec §3 loginOptions): a passkey on a phone or tablet, by the browser's QR code. */
  passkeyOnPhone: string;
  quickCodeContinue: string;
  /** RFC 8252 §8.6: before returning a signed-in person to an app the issuer cannot verify. */
  continueToAppTitle: string;
  continueToAppText(name: string): string;
  // The email carrying the code.
  mailSubject(name: string, code: string): string;
  mailText(name: string, code: string, minutes: number): string;
}

const en: PageTexts = {
  signInTitle: 'Sign in',
  signInTo: (name) => `Sign in to ${name}`,
  emailHint: 'We will email you a 6-digit code. No password needed.',
  emailLabel: 'Email',
  continue: 'Continue',
  cancel: 'Cancel',
  invalidEmail: 'Enter a valid email address',
  mailFailed: 'We could not send the code. Try again in a moment.',
  tooManyCodes: {
    interaction: (then) => `Too many codes were requested in this sign-in. ${then}`,
    address: 'Too many codes were requested for this address. Wait a few minutes, then try again.',
    client: 'Too many codes were requested from your network. Wait a few minutes, then try again.',
  },
  codeTitle: 'Enter your code',
  codeSentTo: (email) => `We sent a 6-digit code to ${email}`,
  codeLabel: 'Code',
  signIn: 'Sign in',
  sendNewCode: 'Send a new code',
  useDifferentEmail: 'Use a different email',
  newCodeSent: 'We sent a new code. Earlier codes no longer work.',
  codeFormat: 'Enter the 6-digit code from the email',
  codeErrors: {
    none: 'Ask for a new code.',
    used: 'That code has already been used. Ask for a new one.',
    expired: 'That code has expired. Ask for a new one.',
    too_many: 'Too many wrong codes. Ask for a new one.',
    address_locked: 'Too many tries for this address. Wait an hour, then ask for a new code.',
    wrong: 'That code is not right',
  },
  wrongCodeLast: 'That code is not right. Ask for a new one.',
  passwordHeading: 'Or use your previous password',
  passwordHint: 'If your account was moved here with its password, you can use it once. You will then create a passkey.',
  passwordLabel: 'Previous password',
  passwordSignIn: 'Sign in with password',
  wrongPassword: 'That password is not right, or cannot be used here. Use the code from the email.',
  userIdLabel: 'User ID',
  invalidUserId: 'Enter a user ID of 1 to 64 letters, digits, dots, hyphens, underscores or @',
  linkHint: 'We will email you a sign-in link. No password needed.',
  customHint: 'No password needed.',
  linkTitle: 'Check your email',
  linkSentTo: (email) => `We sent a sign-in link to ${email}`,
  linkWait: 'Open it on any device. This page goes on by itself once the link is opened, or choose Continue.',
  linkMailFailed: 'We could not send the link. Try again in a moment.',
  sendNewLink: 'Send a new link',
  newLinkSent: 'We sent a new link. Earlier links no longer work.',
  linkNotOpened: 'The link has not been opened yet. Open the link in the email, then choose Continue.',
  linkUnusable: (name) => `This sign-in link has expired or was already used. Start signing in to ${name} again to get a new one.`,
  linkConfirmHeading: 'Confirm your sign-in',
  linkConfirmText: (name, email, device) =>
    `Someone started signing in to ${name} as ${email} on ${device}. If that was you, confirm here and the sign-in goes on in that window. If not, close this page.`,
  linkConfirm: 'Yes, that was me',
  linkVerifiedHeading: 'Your email address is verified',
  linkVerifiedText: 'Go back to the window where you started signing in. It goes on there.',
  linkMailSubject: (name) => `Your ${name} sign-in link`,
  linkMailText: (name, link, minutes) =>
    `Open this link to sign in to ${name}:\n\n${link}\n\nIt expires in ${minutes} minutes and works once. If you did not try to sign in to ${name}, ignore this mail.\n`,
  customTitle: 'Verify who you are',
  customIntro: (name) => `${name} verifies new users on its own site. Continue there; you will come back here afterwards.`,
  customContinue: 'Continue to verification',
  customNotConfirmed: 'Your verification is not confirmed yet. Continue to verification, then come back.',
  cannotVerify: (name) => `${name} cannot verify new users with a user ID by email. Contact its support.`,
  passkeyTitle: 'Sign in with a passkey',
  usePasskeyFor: (email) => `Use your passkey for ${email}.`,
  codeInstead: 'Email me a code instead',
  linkInstead: 'Email me a link instead',
  verifyInstead: 'Verify my identity instead',
  revokedTextVerify: (name) => `It can no longer sign you in to ${name}. To continue, verify your identity again.`,
  useDifferentId: 'Use a different user ID',
  createPasskey: 'Create a passkey',
  createPasskeyHint: (name) => `Next time, sign in to ${name} with this device's screen lock or security key instead of an emailed code.`,
  notNow: 'Not now',
  passkeyRequiredHint: (name) =>
    `${name} asks you to create a passkey on this device to continue. It takes a moment: your screen lock or a security key.`,
  continueWithoutPasskey: 'Continue without a passkey',
  passkeyRequiredError: 'Create a passkey to continue.',
  secondPasskeyHint: 'Your passkey is kept on one device only. A second passkey here keeps you signed in if that device is lost.',
  noWebAuthn: 'This browser cannot use passkeys.',
  passkeyNotCreated: 'No passkey was created. Try again, or choose Not now.',
  passkeyNotUsed: 'The passkey was not used. Try again, or email me a code instead.',
  passkeyUnknown: 'That passkey is not registered for this account. Try again, or email me a code instead.',
  passkeyUnknownHere: 'That passkey is not registered here. Try another, or continue with your address.',
  passkeyHybrid: 'Use a phone or another device',
  orSeparator: 'or',
  passkeyCancelled: 'No passkey was used. If this device has none, use a phone or another device, or continue with your address.',
  noWebAuthnHere: 'This browser cannot use passkeys. Continue with your address below.',
  passkeyLead: 'Use the passkey on this device or on your phone. No password, no code.',
  passkeyNotForConsole:
    'This passkey is not for the Latchkey console: it signs in to an application. Use a passkey made for the console, or continue with your email.',
  passkeyNotVerified: 'The passkey could not be verified. Try again, or email me a code instead.',
  passkeyExists: 'This passkey is registered already. Try again, or choose Not now.',
  revokedTitle: 'Passkey revoked',
  revokedHeading: 'This passkey was revoked',
  revokedText: (name) => `It can no longer sign you in to ${name}. To continue, verify your email address again.`,
  wrongPasskeyTitle: 'Passkey not accepted',
  wrongPasskeyHeading: 'This passkey is not for this address',
  wrongPasskeyText: (name) => `It was made for another address of ${name}. To continue, verify your identity, then create a passkey here.`,
  blockedTitle: 'Sign-in refused',
  blockedHeading: 'You cannot sign in',
  blockedText: (name) => `Your access to ${name} is blocked. If you think this is a mistake, contact ${name}’s support.`,
  browserWarningHeading: 'Before you clear your browser data',
  browserWarning:
    'If your passkey is saved in this browser, clearing its data or removing its profile deletes the passkey. You can then sign in again by verifying your email address.',
  needHelp: 'Need help?',
  help: 'Help',
  problemTitle: 'Sign-in problem',
  problemHeading: 'Sign-in could not continue',
  errorCode: 'Error:',
  backTo: (name) => `Back to ${name}`,
  badAddress: (then) => `This address is not valid. ${then}`,
  expired: (then) => `This sign-in has expired or was opened in another browser. ${then}`,
  serverError: (then) => `Something went wrong on our side. ${then}`,
  startAgainAtApp: 'Go back to the application and try again.',
  startAgainAtConsole: 'Start again from the console.',
  noSuchIssuer: (then) => `There is no sign-in service at this address. ${then}`,
  invalidRequestHeading: 'This sign-in request is not valid',
  invalidRequest: (then) => `This sign-in request is not valid. ${then}`,
  unregisteredRedirect: 'The application asked to return to an address it has not registered, so the sign-in stops here.',
  providerAnswered: (reason, then) => `The sign-in service answered: ${reason}. ${then}`,
  disabledHeading: 'This application is disabled',
  disabledText: 'Its administrators have turned sign-in off for now. Try again later.',
  closedHeading: 'This project is closed',
  closedText: 'Nobody can sign in to its applications.',
  signingOutTitle: 'Signing out',
  signingOut: 'Signing you out…',
  signOutQuestion: (name) => `Sign out of ${name} on this browser?`,
  signOut: 'Sign out',
  signedOutTitle: 'Signed out',
  signedOutHeading: 'You are signed out',
  quickCodeTitle: 'QuickCode',
  quickCodeIssueHeading: (name) => `Add a device to ${name}`,
  quickCodeIssueIntro:
    'Sign in here with your passkey to get a QuickCode. Enter it on your other device to create a passkey there without verifying your email address again.',
  quickCodeGet: 'Get a QuickCode',
  quickCodeYours: 'Your QuickCode',
  quickCodeHowTo: (name, minutes) =>
    `On your other device, start signing in to ${name}, choose “I have a QuickCode” and enter this code within ${minutes} minutes. It works once.`,
  quickCodeOff: (name) => `QuickCodes are not available for ${name}.`,
  quickCodeVerifiedOnly: 'A QuickCode can be issued only from a device that was registered by verifying your email address.',
  quickCodeNoPasskey: 'There is no passkey for this address here. Sign in to the application first and create one.',
  haveQuickCode: 'I have a QuickCode',
  quickCodeEnterHeading: 'Enter your QuickCode',
  quickCodeEnterHint: 'Get the code on a device where you already sign in with a passkey.',
  quickCodeLabel: 'QuickCode',
  quickCodeFormat: 'Enter the 6-digit QuickCode',
  quickCodeRefused: 'That QuickCode is not right, was used, or has expired. Get a new one on your other device.',
  tooManyTries: 'Too many tries from your network. Wait a few minutes, then try again.',
  quickCodeAlso: 'Also get a QuickCode to add another device',
  passkeyOnPhone: 'Use a passkey on a phone or tablet',
  quickCodeContinue: 'Continue',
  continueToAppTitle: 'Continue to the app?',
  continueToAppText: (name) => `You are signed in to ${name}. Continue only if you opened this app yourself just now.`,
  mailSubject: (name, code) => `Your ${name} sign-in code: ${code}`,
  mailText: (name, code, minutes) =>
    `Your sign-in code is ${code}.\n\nIt expires in ${minutes} minutes and works once. If you did not try to sign in to ${name}, ignore this mail.\n`,
};

// French: "vous" throughout; a passkey is a "clé d'accès" (the name Apple, Google and Microsoft use);
// a narrow no-break space before ? ! : and inside « ».
const fr: PageTexts = {
  signInTitle: 'Connexion',
  signInTo: (name) => `Se connecter à ${name}`,
  emailHint: 'Nous vous enverrons un code à 6 chiffres par e-mail. Aucun mot de passe n’est nécessaire.',
  emailLabel: 'Adresse e-mail',
  continue: 'Continuer',
  cancel: 'Annuler',
  invalidEmail: 'Saisissez une adresse e-mail valide',
  mailFailed: 'Nous n’avons pas pu envoyer le code. Réessayez dans un instant.',
  tooManyCodes: {
    interaction: (then) => `Trop de codes ont été demandés pendant cette connexion. ${then}`,
    address: 'Trop de codes ont été demandés pour cette adresse. Patientez quelques minutes, puis réessayez.',
    client: 'Trop de codes ont été demandés depuis votre réseau. Patientez quelques minutes, puis réessayez.',
  },
  codeTitle: 'Saisissez votre code',
  codeSentTo: (email) => `Nous avons envoyé un code à 6 chiffres à ${email}`,
  codeLabel: 'Code',
  signIn: 'Se connecter',
  sendNewCode: 'Envoyer un nouveau code',
  useDifferentEmail: 'Utiliser une autre adresse e-mail',
  newCodeSent: 'Nous avons envoyé un nouveau code. Les codes précédents ne fonctionnent plus.',
  codeFormat: 'Saisissez le code à 6 chiffres reçu par e-mail',
  codeErrors: {
    none: 'Demandez un nouveau code.',
    used: 'Ce code a déjà été utilisé. Demandez-en un nouveau.',
    expired: 'Ce code a expiré. Demandez-en un nouveau.',
    too_many: 'Trop de codes erronés. Demandez-en un nouveau.',
    address_locked: 'Trop de tentatives pour cette adresse. Patientez une heure, puis demandez un nouveau code.',
    wrong: 'Ce code n’est pas correct',
  },
  wrongCodeLast: 'Ce code n’est pas correct. Demandez-en un nouveau.',
  passwordHeading: 'Ou utilisez votre ancien mot de passe',
  passwordHint: 'Si votre compte a été transféré ici avec son mot de passe, vous pouvez l’utiliser une fois. Vous créerez ensuite une clé d’accès.',
  passwordLabel: 'Ancien mot de passe',
  passwordSignIn: 'Se connecter avec le mot de passe',
  wrongPassword: 'Ce mot de passe n’est pas correct ou ne peut pas être utilisé ici. Utilisez le code reçu par e-mail.',
  userIdLabel: 'Identifiant',
  invalidUserId: 'Saisissez un identifiant de 1 à 64 lettres, chiffres, points, tirets, traits de soulignement ou @',
  linkHint: 'Nous vous enverrons un lien de connexion par e-mail. Aucun mot de passe n’est nécessaire.',
  customHint: 'Aucun mot de passe n’est nécessaire.',
  linkTitle: 'Consultez vos e-mails',
  linkSentTo: (email) => `Nous avons envoyé un lien de connexion à ${email}`,
  linkWait:
    'Ouvrez-le sur n’importe quel appareil. Cette page continue d’elle-même dès que le lien est ouvert, ou choisissez «\u202fContinuer\u202f».',
  linkMailFailed: 'Nous n’avons pas pu envoyer le lien. Réessayez dans un instant.',
  sendNewLink: 'Envoyer un nouveau lien',
  newLinkSent: 'Nous avons envoyé un nouveau lien. Les liens précédents ne fonctionnent plus.',
  linkNotOpened: 'Le lien n’a pas encore été ouvert. Ouvrez le lien reçu par e-mail, puis choisissez «\u202fContinuer\u202f».',
  linkUnusable: (name) => `Ce lien de connexion a expiré ou a déjà servi. Recommencez la connexion à ${name} pour en obtenir un nouveau.`,
  linkConfirmHeading: 'Confirmez votre connexion',
  linkConfirmText: (name, email, device) =>
    `Quelqu’un a commencé à se connecter à ${name} en tant que ${email} sur ${device}. Si c’était vous, confirmez ici et la connexion se poursuit dans cette fenêtre. Sinon, fermez cette page.`,
  linkConfirm: 'Oui, c’était moi',
  linkVerifiedHeading: 'Votre adresse e-mail est vérifiée',
  linkVerifiedText: 'Revenez à la fenêtre où vous avez commencé à vous connecter. La connexion s’y poursuit.',
  linkMailSubject: (name) => `Votre lien de connexion à ${name}`,
  linkMailText: (name, link, minutes) =>
    `Ouvrez ce lien pour vous connecter à ${name}\u202f:\n\n${link}\n\nIl expire dans ${minutes} minutes et ne fonctionne qu’une fois. Si vous n’avez pas essayé de vous connecter à ${name}, ignorez ce message.\n`,
  customTitle: 'Vérifiez votre identité',
  customIntro: (name) => `${name} vérifie les nouveaux utilisateurs sur son propre site. Continuez là-bas\u202f; vous reviendrez ici ensuite.`,
  customContinue: 'Continuer vers la vérification',
  customNotConfirmed: 'Votre vérification n’est pas encore confirmée. Continuez vers la vérification, puis revenez.',
  cannotVerify: (name) =>
    `${name} ne peut pas vérifier par e-mail les nouveaux utilisateurs identifiés par un identifiant. Contactez son assistance.`,
  passkeyTitle: 'Se connecter avec une clé d’accès',
  usePasskeyFor: (email) => `Utilisez votre clé d’accès pour ${email}.`,
  codeInstead: 'M’envoyer plutôt un code par e-mail',
  linkInstead: 'M’envoyer plutôt un lien par e-mail',
  verifyInstead: 'Vérifier plutôt mon identité',
  revokedTextVerify: (name) => `Elle ne permet plus de vous connecter à ${name}. Pour continuer, vérifiez de nouveau votre identité.`,
  useDifferentId: 'Utiliser un autre identifiant',
  createPasskey: 'Créer une clé d’accès',
  createPasskeyHint: (name) =>
    `La prochaine fois, connectez-vous à ${name} avec le verrouillage de l’écran de cet appareil ou une clé de sécurité, au lieu d’un code reçu par e-mail.`,
  notNow: 'Pas maintenant',
  passkeyRequiredHint: (name) =>
    `${name} vous demande de créer une clé d’accès sur cet appareil pour continuer. C’est rapide : le verrouillage de votre écran ou une clé de sécurité.`,
  continueWithoutPasskey: 'Continuer sans clé d’accès',
  passkeyRequiredError: 'Créez une clé d’accès pour continuer.',
  secondPasskeyHint:
    'Votre clé d’accès n’est gardée que sur un seul appareil. Une deuxième clé ici vous permet de vous connecter si cet appareil est perdu.',
  noWebAuthn: 'Ce navigateur ne prend pas en charge les clés d’accès.',
  passkeyNotCreated: 'Aucune clé d’accès n’a été créée. Réessayez ou choisissez «\u202fPas maintenant\u202f».',
  passkeyNotUsed: 'La clé d’accès n’a pas été utilisée. Réessayez ou choisissez «\u202fM’envoyer plutôt un code par e-mail\u202f».',
  passkeyUnknown:
    'Cette clé d’accès n’est pas enregistrée pour ce compte. Réessayez ou choisissez «\u202fM’envoyer plutôt un code par e-mail\u202f».',
  passkeyUnknownHere: 'Cette clé d’accès n’est pas enregistrée ici. Essayez-en une autre ou continuez avec votre adresse.',
  passkeyHybrid: 'Utiliser un téléphone ou un autre appareil',
  orSeparator: 'ou',
  passkeyCancelled:
    'Aucune clé d’accès n’a été utilisée. Si cet appareil n’en a pas, utilisez un téléphone ou un autre appareil, ou continuez avec votre adresse.',
  noWebAuthnHere: 'Ce navigateur ne prend pas en charge les clés d’accès. Continuez avec votre adresse ci-dessous.',
  passkeyLead: 'Utilisez la clé d’accès de cet appareil ou de votre téléphone. Ni mot de passe, ni code.',
  passkeyNotForConsole:
    'Cette clé d’accès n’est pas pour la console Latchkey\u202f: elle sert à se connecter à une application. Utilisez une clé d’accès créée pour la console ou continuez avec votre adresse e-mail.',
  passkeyNotVerified: 'La clé d’accès n’a pas pu être vérifiée. Réessayez ou choisissez «\u202fM’envoyer plutôt un code par e-mail\u202f».',
  passkeyExists: 'Cette clé d’accès est déjà enregistrée. Réessayez ou choisissez «\u202fPas maintenant\u202f».',
  revokedTitle: 'Clé d’accès révoquée',
  revokedHeading: 'Cette clé d’accès a été révoquée',
  revokedText: (name) => `Elle ne permet plus de vous connecter à ${name}. Pour continuer, vérifiez de nouveau votre adresse e-mail.`,
  wrongPasskeyTitle: 'Clé d’accès refusée',
  wrongPasskeyHeading: 'Cette clé d’accès n’est pas pour cette adresse',
  wrongPasskeyText: (name) =>
    `Elle a été créée pour une autre adresse de ${name}. Pour continuer, vérifiez votre identité, puis créez une clé d’accès ici.`,
  blockedTitle: 'Connexion refusée',
  blockedHeading: 'Vous ne pouvez pas vous connecter',
  blockedText: (name) => `Votre accès à ${name} est bloqué. Si vous pensez qu’il s’agit d’une erreur, contactez le support de ${name}.`,
  browserWarningHeading: 'Avant d’effacer les données de votre navigateur',
  browserWarning:
    'Si votre clé d’accès est enregistrée dans ce navigateur, effacer ses données ou supprimer son profil supprime aussi la clé. Vous pourrez alors vous reconnecter en vérifiant votre adresse e-mail.',
  needHelp: 'Besoin d’aide\u202f?',
  help: 'Aide',
  problemTitle: 'Problème de connexion',
  problemHeading: 'La connexion n’a pas pu aboutir',
  errorCode: 'Erreur\u202f:',
  backTo: (name) => `Retour à ${name}`,
  badAddress: (then) => `Cette adresse n’est pas valide. ${then}`,
  expired: (then) => `Cette connexion a expiré ou a été ouverte dans un autre navigateur. ${then}`,
  serverError: (then) => `Un problème est survenu de notre côté. ${then}`,
  startAgainAtApp: 'Revenez à l’application et réessayez.',
  startAgainAtConsole: 'Recommencez depuis la console.',
  noSuchIssuer: (then) => `Il n’existe aucun service de connexion à cette adresse. ${then}`,
  invalidRequestHeading: 'Cette demande de connexion n’est pas valide',
  invalidRequest: (then) => `Cette demande de connexion n’est pas valide. ${then}`,
  unregisteredRedirect: 'L’application a demandé à revenir à une adresse qu’elle n’a pas enregistrée\u202f: la connexion s’arrête donc ici.',
  providerAnswered: (reason, then) => `Le service de connexion a répondu\u202f: ${reason}. ${then}`,
  disabledHeading: 'Cette application est désactivée',
  disabledText: 'Ses administrateurs ont désactivé la connexion pour le moment. Réessayez plus tard.',
  closedHeading: 'Ce projet est fermé',
  closedText: 'Personne ne peut se connecter à ses applications.',
  signingOutTitle: 'Déconnexion',
  signingOut: 'Déconnexion en cours…',
  signOutQuestion: (name) => `Se déconnecter de ${name} sur ce navigateur\u202f?`,
  signOut: 'Se déconnecter',
  signedOutTitle: 'Déconnexion terminée',
  signedOutHeading: 'Vous êtes déconnecté',
  quickCodeTitle: 'QuickCode',
  quickCodeIssueHeading: (name) => `Ajouter un appareil à ${name}`,
  quickCodeIssueIntro:
    'Connectez-vous ici avec votre clé d’accès pour obtenir un QuickCode. Saisissez-le sur votre autre appareil pour y créer une clé d’accès sans vérifier à nouveau votre adresse e-mail.',
  quickCodeGet: 'Obtenir un QuickCode',
  quickCodeYours: 'Votre QuickCode',
  quickCodeHowTo: (name, minutes) =>
    `Sur votre autre appareil, commencez à vous connecter à ${name}, choisissez «\u202fJ’ai un QuickCode\u202f» et saisissez ce code dans les ${minutes} minutes. Il ne fonctionne qu’une fois.`,
  quickCodeOff: (name) => `Les QuickCodes ne sont pas disponibles pour ${name}.`,
  quickCodeVerifiedOnly: 'Un QuickCode ne peut être obtenu que depuis un appareil enregistré en vérifiant votre adresse e-mail.',
  quickCodeNoPasskey: 'Aucune clé d’accès n’existe ici pour cette adresse. Connectez-vous d’abord à l’application et créez-en une.',
  haveQuickCode: 'J’ai un QuickCode',
  quickCodeEnterHeading: 'Saisissez votre QuickCode',
  quickCodeEnterHint: 'Obtenez le code sur un appareil où vous vous connectez déjà avec une clé d’accès.',
  quickCodeLabel: 'QuickCode',
  quickCodeFormat: 'Saisissez le QuickCode à 6 chiffres',
  quickCodeRefused: 'Ce QuickCode est incorrect, a déjà servi ou a expiré. Obtenez-en un nouveau sur votre autre appareil.',
  tooManyTries: 'Trop de tentatives depuis votre réseau. Patientez quelques minutes, puis réessayez.',
  quickCodeAlso: 'Obtenir aussi un QuickCode pour ajouter un autre appareil',
  passkeyOnPhone: 'Utiliser une clé d’accès sur un téléphone ou une tablette',
  quickCodeContinue: 'Continuer',
  continueToAppTitle: 'Continuer vers l’application\u202f?',
  continueToAppText: (name) => `Vous êtes connecté à ${name}. Ne continuez que si vous venez d’ouvrir vous-même cette application.`,
  mailSubject: (name, code) => `Votre code de connexion à ${name}\u202f: ${code}`,
  mailText: (name, code, minutes) =>
    `Votre code de connexion est ${code}.\n\nIl expire dans ${minutes} minutes et ne fonctionne qu’une fois. Si vous n’avez pas essayé de vous connecter à ${name}, ignorez ce message.\n`,
};

// Romanian: the polite form ("dumneavoastră") throughout, with ș and ț (comma below); a passkey is
// a "cheie de acces"; quotation marks „…”.
const ro: PageTexts = {
  signInTitle: 'Conectare',
  signInTo: (name) => `Conectați-vă la ${name}`,
  emailHint: 'Vă vom trimite prin e-mail un cod din 6 cifre. Nu aveți nevoie de parolă.',
  emailLabel: 'Adresă de e-mail',
  continue: 'Continuați',
  cancel: 'Anulați',
  invalidEmail: 'Introduceți o adresă de e-mail validă',
  mailFailed: 'Nu am putut trimite codul. Încercați din nou peste câteva momente.',
  tooManyCodes: {
    interaction: (then) => `Au fost solicitate prea multe coduri în această conectare. ${then}`,
    address: 'Au fost solicitate prea multe coduri pentru această adresă. Așteptați câteva minute, apoi încercați din nou.',
    client: 'Au fost solicitate prea multe coduri din rețeaua dumneavoastră. Așteptați câteva minute, apoi încercați din nou.',
  },
  codeTitle: 'Introduceți codul',
  codeSentTo: (email) => `Am trimis un cod din 6 cifre la ${email}`,
  codeLabel: 'Cod',
  signIn: 'Conectați-vă',
  sendNewCode: 'Trimiteți un cod nou',
  useDifferentEmail: 'Folosiți altă adresă de e-mail',
  newCodeSent: 'Am trimis un cod nou. Codurile anterioare nu mai funcționează.',
  codeFormat: 'Introduceți codul din 6 cifre primit prin e-mail',
  codeErrors: {
    none: 'Solicitați un cod nou.',
    used: 'Acest cod a fost deja folosit. Solicitați unul nou.',
    expired: 'Acest cod a expirat. Solicitați unul nou.',
    too_many: 'Prea multe coduri greșite. Solicitați unul nou.',
    address_locked: 'Prea multe încercări pentru această adresă. Așteptați o oră, apoi solicitați un cod nou.',
    wrong: 'Acest cod nu este corect',
  },
  wrongCodeLast: 'Acest cod nu este corect. Solicitați unul nou.',
  passwordHeading: 'Sau folosiți parola anterioară',
  passwordHint: 'Dacă contul dumneavoastră a fost mutat aici împreună cu parola, o puteți folosi o singură dată. Apoi veți crea o cheie de acces.',
  passwordLabel: 'Parola anterioară',
  passwordSignIn: 'Conectare cu parola',
  wrongPassword: 'Parola nu este corectă sau nu poate fi folosită aici. Folosiți codul din e-mail.',
  userIdLabel: 'ID utilizator',
  invalidUserId: 'Introduceți un ID de utilizator din 1–64 litere, cifre, puncte, cratime, liniuțe de subliniere sau @',
  linkHint: 'Vă vom trimite prin e-mail un link de conectare. Nu aveți nevoie de parolă.',
  customHint: 'Nu aveți nevoie de parolă.',
  linkTitle: 'Verificați-vă e-mailul',
  linkSentTo: (email) => `Am trimis un link de conectare la ${email}`,
  linkWait: 'Deschideți-l pe orice dispozitiv. Această pagină continuă singură după ce linkul este deschis, sau alegeți „Continuați”.',
  linkMailFailed: 'Nu am putut trimite linkul. Încercați din nou peste câteva momente.',
  sendNewLink: 'Trimiteți un link nou',
  newLinkSent: 'Am trimis un link nou. Linkurile anterioare nu mai funcționează.',
  linkNotOpened: 'Linkul nu a fost deschis încă. Deschideți linkul din e-mail, apoi alegeți „Continuați”.',
  linkUnusable: (name) => `Acest link de conectare a expirat sau a fost deja folosit. Reîncepeți conectarea la ${name} pentru a primi unul nou.`,
  linkConfirmHeading: 'Confirmați conectarea',
  linkConfirmText: (name, email, device) =>
    `Cineva a început conectarea la ${name} ca ${email} pe ${device}. Dacă ați fost dumneavoastră, confirmați aici și conectarea continuă în acea fereastră. Dacă nu, închideți această pagină.`,
  linkConfirm: 'Da, am fost eu',
  linkVerifiedHeading: 'Adresa de e-mail este verificată',
  linkVerifiedText: 'Reveniți la fereastra în care ați început conectarea. Aceasta continuă acolo.',
  linkMailSubject: (name) => `Linkul dumneavoastră de conectare la ${name}`,
  linkMailText: (name, link, minutes) =>
    `Deschideți acest link pentru a vă conecta la ${name}:\n\n${link}\n\nExpiră în ${minutes} minute și poate fi folosit o singură dată. Dacă nu ați încercat să vă conectați la ${name}, ignorați acest mesaj.\n`,
  customTitle: 'Verificați-vă identitatea',
  customIntro: (name) => `${name} verifică utilizatorii noi pe propriul site. Continuați acolo; veți reveni aici după aceea.`,
  customContinue: 'Continuați către verificare',
  customNotConfirmed: 'Verificarea nu este confirmată încă. Continuați către verificare, apoi reveniți.',
  cannotVerify: (name) => `${name} nu poate verifica prin e-mail utilizatorii noi cu ID de utilizator. Contactați asistența.`,
  passkeyTitle: 'Conectați-vă cu o cheie de acces',
  usePasskeyFor: (email) => `Folosiți cheia de acces pentru ${email}.`,
  codeInstead: 'Trimiteți-mi în schimb un cod prin e-mail',
  linkInstead: 'Trimiteți-mi în schimb un link prin e-mail',
  verifyInstead: 'Vreau să-mi verific identitatea',
  revokedTextVerify: (name) => `Nu vă mai poate conecta la ${name}. Pentru a continua, verificați-vă din nou identitatea.`,
  useDifferentId: 'Folosiți alt ID de utilizator',
  createPasskey: 'Creați o cheie de acces',
  createPasskeyHint: (name) =>
    `Data viitoare, conectați-vă la ${name} cu blocarea ecranului acestui dispozitiv sau cu o cheie de securitate, în loc de un cod primit prin e-mail.`,
  notNow: 'Nu acum',
  passkeyRequiredHint: (name) =>
    `${name} vă cere să creați o cheie de acces pe acest dispozitiv pentru a continua. Durează o clipă: blocarea ecranului sau o cheie de securitate.`,
  continueWithoutPasskey: 'Continuați fără cheie de acces',
  passkeyRequiredError: 'Creați o cheie de acces pentru a continua.',
  secondPasskeyHint:
    'Cheia dvs. de acces este păstrată pe un singur dispozitiv. O a doua cheie aici vă permite să vă conectați dacă acel dispozitiv se pierde.',
  noWebAuthn: 'Acest browser nu poate folosi chei de acces.',
  passkeyNotCreated: 'Nu a fost creată nicio cheie de acces. Încercați din nou sau alegeți „Nu acum”.',
  passkeyNotUsed: 'Cheia de acces nu a fost folosită. Încercați din nou sau alegeți „Trimiteți-mi în schimb un cod prin e-mail”.',
  passkeyUnknown:
    'Această cheie de acces nu este înregistrată pentru acest cont. Încercați din nou sau alegeți „Trimiteți-mi în schimb un cod prin e-mail”.',
  passkeyUnknownHere: 'Această cheie de acces nu este înregistrată aici. Încercați alta sau continuați cu adresa dvs.',
  passkeyHybrid: 'Folosiți un telefon sau alt dispozitiv',
  orSeparator: 'sau',
  passkeyCancelled:
    'Nu a fost folosită nicio cheie de acces. Dacă acest dispozitiv nu are una, folosiți un telefon sau alt dispozitiv, ori continuați cu adresa dvs.',
  noWebAuthnHere: 'Acest browser nu poate folosi chei de acces. Continuați cu adresa dvs. de mai jos.',
  passkeyLead: 'Folosiți cheia de acces de pe acest dispozitiv sau de pe telefon. Fără parolă, fără cod.',
  passkeyNotForConsole:
    'Această cheie de acces nu este pentru consola Latchkey: ea servește la conectarea la o aplicație. Folosiți o cheie de acces creată pentru consolă sau continuați cu adresa de e-mail.',
  passkeyNotVerified: 'Cheia de acces nu a putut fi verificată. Încercați din nou sau alegeți „Trimiteți-mi în schimb un cod prin e-mail”.',
  passkeyExists: 'Această cheie de acces este deja înregistrată. Încercați din nou sau alegeți „Nu acum”.',
  revokedTitle: 'Cheie de acces revocată',
  revokedHeading: 'Această cheie de acces a fost revocată',
  revokedText: (name) => `Nu vă mai poate conecta la ${name}. Pentru a continua, verificați din nou adresa de e-mail.`,
  wrongPasskeyTitle: 'Cheie de acces refuzată',
  wrongPasskeyHeading: 'Această cheie de acces nu este pentru această adresă',
  wrongPasskeyText: (name) =>
    `A fost creată pentru o altă adresă a ${name}. Pentru a continua, verificați-vă identitatea, apoi creați aici o cheie de acces.`,
  blockedTitle: 'Conectare refuzată',
  blockedHeading: 'Nu vă puteți conecta',
  blockedText: (name) => `Accesul dumneavoastră la ${name} este blocat. Dacă credeți că este o greșeală, contactați asistența ${name}.`,
  browserWarningHeading: 'Înainte să ștergeți datele browserului',
  browserWarning:
    'Dacă cheia de acces este salvată în acest browser, ștergerea datelor sale sau eliminarea profilului șterge și cheia. Vă veți putea conecta apoi din nou verificând adresa de e-mail.',
  needHelp: 'Aveți nevoie de ajutor?',
  help: 'Ajutor',
  problemTitle: 'Problemă la conectare',
  problemHeading: 'Conectarea nu a putut continua',
  errorCode: 'Eroare:',
  backTo: (name) => `Înapoi la ${name}`,
  badAddress: (then) => `Această adresă nu este validă. ${then}`,
  expired: (then) => `Această conectare a expirat sau a fost deschisă în alt browser. ${then}`,
  serverError: (then) => `A apărut o problemă din partea noastră. ${then}`,
  startAgainAtApp: 'Reveniți la aplicație și încercați din nou.',
  startAgainAtConsole: 'Reîncepeți din consolă.',
  noSuchIssuer: (then) => `La această adresă nu există niciun serviciu de conectare. ${then}`,
  invalidRequestHeading: 'Această cerere de conectare nu este validă',
  invalidRequest: (then) => `Această cerere de conectare nu este validă. ${then}`,
  unregisteredRedirect: 'Aplicația a cerut să revină la o adresă pe care nu a înregistrat-o, așa că procesul de conectare se oprește aici.',
  providerAnswered: (reason, then) => `Serviciul de conectare a răspuns: ${reason}. ${then}`,
  disabledHeading: 'Această aplicație este dezactivată',
  disabledText: 'Administratorii ei au dezactivat deocamdată conectarea. Încercați din nou mai târziu.',
  closedHeading: 'Acest proiect este închis',
  closedText: 'Nimeni nu se poate conecta la aplicațiile sale.',
  signingOutTitle: 'Deconectare',
  signingOut: 'Vă deconectăm…',
  signOutQuestion: (name) => `Vă deconectați de la ${name} în acest browser?`,
  signOut: 'Deconectați-vă',
  signedOutTitle: 'Deconectat',
  signedOutHeading: 'V-ați deconectat',
  quickCodeTitle: 'QuickCode',
  quickCodeIssueHeading: (name) => `Adăugați un dispozitiv la ${name}`,
  quickCodeIssueIntro:
    'Conectați-vă aici cu cheia de acces pentru a primi un QuickCode. Introduceți-l pe celălalt dispozitiv pentru a crea acolo o cheie de acces fără a vă verifica din nou adresa de e-mail.',
  quickCodeGet: 'Obțineți un QuickCode',
  quickCodeYours: 'QuickCode-ul dumneavoastră',
  quickCodeHowTo: (name, minutes) =>
    `Pe celălalt dispozitiv, începeți conectarea la ${name}, alegeți „Am un QuickCode” și introduceți acest cod în cel mult ${minutes} minute. Funcționează o singură dată.`,
  quickCodeOff: (name) => `QuickCode nu este disponibil pentru ${name}.`,
  quickCodeVerifiedOnly: 'Un QuickCode poate fi obținut doar de pe un dispozitiv înregistrat prin verificarea adresei de e-mail.',
  quickCodeNoPasskey: 'Nu există aici nicio cheie de acces pentru această adresă. Conectați-vă mai întâi la aplicație și creați una.',
  haveQuickCode: 'Am un QuickCode',
  quickCodeEnterHeading: 'Introduceți QuickCode-ul',
  quickCodeEnterHint: 'Obțineți codul pe un dispozitiv pe care vă conectați deja cu o cheie de acces.',
  quickCodeLabel: 'QuickCode',
  quickCodeFormat: 'Introduceți QuickCode-ul de 6 cifre',
  quickCodeRefused: 'Acest QuickCode nu este corect, a fost folosit deja sau a expirat. Obțineți unul nou pe celălalt dispozitiv.',
  tooManyTries: 'Prea multe încercări din rețeaua dumneavoastră. Așteptați câteva minute, apoi încercați din nou.',
  quickCodeAlso: 'Obțineți și un QuickCode pentru a adăuga alt dispozitiv',
  passkeyOnPhone: 'Folosiți o cheie de acces de pe telefon sau tabletă',
  quickCodeContinue: 'Continuați',
  continueToAppTitle: 'Continuați către aplicație?',
  continueToAppText: (name) => `Sunteți conectat la ${name}. Continuați doar dacă tocmai ați deschis chiar dumneavoastră această aplicație.`,
  mailSubject: (name, code) => `Codul dumneavoastră de conectare la ${name}: ${code}`,
  mailText: (name, code, minutes) =>
    `Codul dumneavoastră de conectare este ${code}.\n\nExpiră în ${minutes} minute și poate fi folosit o singură dată. Dacă nu ați încercat să vă conectați la ${name}, ignorați acest mesaj.\n`,
};

export const PAGE_TEXTS: Readonly<Record<PageLanguage, PageTexts>> = { en, fr, ro };

const isPageLanguage = (tag: string): tag is PageLanguage => (LANGUAGES as readonly string[]).includes(tag);

/**
 * The language of a hosted page (docs/decisions/0015): the browser's most preferred language among
 * en, fr and ro (Accept-Language, by q-value, then order; a region such as fr-CA counts as its
 * language), else the project's own (`fallback`). `*` and q=0 name no language.
 */
export function pageLanguage(acceptLanguage: string | string[] | undefined, fallback: PageLanguage): PageLanguage {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  let best: { language: PageLanguage; q: number } | null = null;
  // A browser sends a handful; a longer header is read no further than its first 32 entries.
  for (const entry of header.split(',').slice(0, 32)) {
    const [range = '', ...params] = entry.split(';').map((part) => part.trim());
    const primary = range.toLowerCase().split('-')[0] ?? '';
    if (!isPageLanguage(primary)) continue;
    let q = 1;
    for (const param of params) {
      const m = /^q\s*=\s*([01](?:\.\d{0,3})?)$/i.exec(param);
      if (m) q = Number(m[1]);
      else if (/^q\s*=/i.test(param)) q = 0; // a malformed weight: the entry is not relied on
    }
    if (q > 0 && q <= 1 && (!best || q > best.q)) best = { language: primary, q };
  }
  return best?.language ?? fallback;
}
