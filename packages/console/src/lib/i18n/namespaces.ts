/**
 * The console's text namespaces beside the main catalogue, each added by its own `texts.en.ts`
 * (`declare module … { interface TextNamespaces { devices: typeof devicesTexts } }`): a feature's
 * texts are typed from its folder, and no central file names them (app/i18next.d.ts reads this).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface TextNamespaces {}
