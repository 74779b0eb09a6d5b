// The database boundary (issue 21): a row's timestamps come back as Date from both drivers and leave
// as the domain's ISO 8601 text, converted here once, by each entity's fromRow.

/** A timestamp as ISO 8601 in UTC. */
export const iso = (at: Date | string): string => new Date(at).toISOString();
