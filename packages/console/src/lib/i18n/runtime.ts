// The console's translation runtime (issue 21: the first download). What the console asks of a
// translator is small — texts by namespace and dotted key, `{{name}}` values, plural forms by the
// language's rules (`key_one`, `key_few`, `key_other`), English when a language lacks a text, and
// a change of language that every text on screen follows — so it is these 150 lines, not a general
// library in the first download. The keys stay typed by i18next's types (app/i18next.d.ts), which
// cost nothing at run time.

type Texts = { readonly [key: string]: unknown };
export type TranslateOptions = { readonly count?: number } & Readonly<Record<string, unknown>>;
type MissingKeyListener = (languages: readonly string[], namespace: string, key: string) => void;
type LanguageListener = (language: string) => void;

/** A dotted key's value in a tree of texts (`list.label` → texts.list.label), or undefined. */
function lookUp(texts: Texts | undefined, key: string): unknown {
  let node: unknown = texts;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Texts)[part];
  }
  return node;
}

/** `{{name}}` (and `{{- name}}`) replaced by the option's value; one not given stays as written. */
function interpolate(text: string, options: TranslateOptions | undefined): string {
  if (!options || !text.includes('{{')) return text;
  return text.replace(/\{\{-?\s*([\w.]+)\s*\}\}/g, (whole, name: string) => {
    const value = options[name];
    return value === undefined || value === null ? whole : String(value);
  });
}

export class Translator {
  language: string;
  readonly fallbackLanguage: string;
  readonly isInitialized = true;
  /** `saveMissing`: report texts asked for that no catalogue has ('missingKey'), as the tests do. */
  readonly options: { saveMissing: boolean; defaultNS: string };
  private readonly store = new Map<string, Map<string, Texts>>();
  private readonly pluralRules = new Map<string, Intl.PluralRules>();
  private readonly missingListeners = new Set<MissingKeyListener>();
  private readonly languageListeners = new Set<LanguageListener>();

  constructor(p: { language: string; fallbackLanguage: string; defaultNS: string; resources: Record<string, Record<string, Texts>> }) {
    this.language = p.language;
    this.fallbackLanguage = p.fallbackLanguage;
    this.options = { saveMissing: false, defaultNS: p.defaultNS };
    for (const [language, namespaces] of Object.entries(p.resources)) {
      for (const [namespace, texts] of Object.entries(namespaces)) this.addResourceBundle(language, namespace, texts);
    }
  }

  addResourceBundle(language: string, namespace: string, texts: Texts): void {
    let namespaces = this.store.get(language);
    if (!namespaces) this.store.set(language, (namespaces = new Map()));
    namespaces.set(namespace, texts);
  }

  hasResourceBundle(language: string, namespace: string): boolean {
    return this.store.get(language)?.has(namespace) ?? false;
  }

  getResourceBundle(language: string, namespace: string): Texts | undefined {
    return this.store.get(language)?.get(namespace);
  }

  getResource(language: string, namespace: string, key: string): unknown {
    return lookUp(this.getResourceBundle(language, namespace), key);
  }

  /** The language's plural form of `count` (Intl.PluralRules: `one`, `few`, `other`…). */
  private pluralForm(language: string, count: number): Intl.LDMLPluralRule {
    let rules = this.pluralRules.get(language);
    if (!rules) this.pluralRules.set(language, (rules = new Intl.PluralRules(language)));
    return rules.select(count);
  }

  /** The text in `language`: with a count, its plural form first, then the key itself. */
  private find(language: string, namespace: string, key: string, count: number | undefined): string | undefined {
    const texts = this.getResourceBundle(language, namespace);
    const keys = count === undefined ? [key] : [`${key}_${this.pluralForm(language, count)}`, key];
    for (const candidate of keys) {
      const value = lookUp(texts, candidate);
      if (typeof value === 'string') return value;
    }
    return undefined;
  }

  /**
   * The text of `key` in the current language, else in the fallback language, its `{{values}}`
   * filled in; a text no catalogue has answers its key. Its namespace: `namespace:key`, else the
   * `ns` option, else the main catalogue.
   */
  t(key: string, options?: TranslateOptions): string {
    return this.translate(this.language, key, options, typeof options?.['ns'] === 'string' ? options['ns'] : this.options.defaultNS);
  }

  /** A `t` of one namespace in one language (what a component's useTranslation gives for a render). */
  fixedT(namespace: string, language: string): (key: string, options?: TranslateOptions) => string {
    return (key, options) => this.translate(language, key, options, namespace);
  }

  private translate(language: string, key: string, options: TranslateOptions | undefined, namespace: string): string {
    const split = key.indexOf(':');
    const [ns, path] = split > 0 ? [key.slice(0, split), key.slice(split + 1)] : [namespace, key];
    const count = typeof options?.count === 'number' ? options.count : undefined;
    const text = this.find(language, ns, path, count) ?? this.find(this.fallbackLanguage, ns, path, count);
    if (text !== undefined) return interpolate(text, options);
    if (this.options.saveMissing) for (const listener of this.missingListeners) listener([language], ns, path);
    return path;
  }

  async changeLanguage(language: string): Promise<void> {
    if (language === this.language) return;
    this.language = language;
    for (const listener of this.languageListeners) listener(language);
  }

  on(event: 'missingKey', listener: MissingKeyListener): void;
  on(event: 'languageChanged', listener: LanguageListener): void;
  on(event: 'missingKey' | 'languageChanged', listener: MissingKeyListener | LanguageListener): void {
    if (event === 'missingKey') this.missingListeners.add(listener as MissingKeyListener);
    else this.languageListeners.add(listener as LanguageListener);
  }

  off(event: 'missingKey' | 'languageChanged', listener: MissingKeyListener | LanguageListener): void {
    if (event === 'missingKey') this.missingListeners.delete(listener as MissingKeyListener);
    else this.languageListeners.delete(listener as LanguageListener);
  }
}
