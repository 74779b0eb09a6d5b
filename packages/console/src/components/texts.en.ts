/**
 * Texts of the shared list, modal and form pieces (namespace `ui`). They load with the first page
 * that uses one of these pieces, not with the first download (see lib/i18n `addTexts`).
 */
export const uiTexts = {
  list: {
    noRecords: 'No records found',
    loadFailed: 'The list could not be loaded',
    loading: 'Loading...',
    filters: 'Filters',
    activeFilters: 'Active filters',
    filterTag: '{{label}}: {{value}}',
    removeFilter: 'Remove filter {{label}}',
    clearFilter: 'Clear {{label}}',
    any: 'Any',
    pagination: 'Pagination',
    previousPage: 'Previous page',
    nextPage: 'Next page',
    page: 'Page {{page}}',
    rowsPerPage: 'Rows per page',
    range: '{{from}}–{{to}} of {{total}}',
    /** More rows than were counted (docs/decisions/0019): "1–10 of 10,000+". */
    rangeCapped: '{{from}}–{{to}} of {{total}}+',
    fromDate: 'From',
    toDate: 'To',
    yes: 'Yes',
    no: 'No',
  },
  actions: {
    save: 'Save',
    cancel: 'Cancel',
    close: 'Close',
  },
  copy: {
    copy: 'Copy {{label}}',
    copied: 'Copied',
  },
  secret: {
    warningTitle: 'Shown only once',
    warning: 'Copy it now and keep it somewhere safe: it cannot be retrieved later.',
    acknowledge: 'I have copied it',
  },
  settings: {
    dangerZone: 'Danger zone',
  },
  /** Export of a list's current filter (docs/decisions/0019 "Export"). */
  export: {
    label: 'Export',
    asCsv: 'CSV (spreadsheet)',
    asJsonl: 'JSON Lines',
    formats: { csv: 'CSV', jsonl: 'JSON Lines' },
    progress_one: 'Exporting {{format}}: {{rows}} row',
    progress_other: 'Exporting {{format}}: {{rows}} rows',
    progressOf_one: 'Exporting {{format}}: {{rows}} of {{total}} row',
    progressOf_other: 'Exporting {{format}}: {{rows}} of {{total}} rows',
    cancel: 'Cancel export',
    done_one: '{{rows}} row exported to {{file}}',
    done_other: '{{rows}} rows exported to {{file}}',
    failed: 'Export failed',
  },
} as const;

declare module '../lib/i18n/namespaces' {
  interface TextNamespaces {
    ui: typeof uiTexts;
  }
}
