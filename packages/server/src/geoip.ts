import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';
import { UNKNOWN_COUNTRY } from '@latchkey/domain';

/**
 * The country of a client address, for events and usage by country (issue 8 "Every event is data").
 * Offline: the geo-whois-asn-country database of ip-location-db, from npm, IPv4 and IPv6 in one
 * MMDB file, read once into memory (8 MB, about 10 ms). Its data is CC BY 4.0 by the Number Resource
 * Organization (nro.net); the attribution is in NOTICE.md and the README.
 */
export interface CountryLookup {
  /** ISO 3166-1 alpha-2, or `ZZ` when the address is not public or not found. */
  countryOf(ip: string | null | undefined): string;
}

/**
 * Addresses that are never anywhere: loopback, private, link-local, shared (CGNAT), documentation,
 * benchmarking, multicast and reserved ranges. The database gives some of them a country (a
 * documentation prefix of IPv6 answers "JP"), so they are answered as unknown before asking it.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

function databasePath(): string {
  const require = createRequire(import.meta.url);
  return require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');
}

let shared: CountryLookup | null = null;

/** The one lookup of this process (the database is read on first use). */
export function countryLookup(): CountryLookup {
  if (shared) return shared;
  // This database's records are `{ country_code }`, not one of MaxMind's own shapes.
  const reader = new Reader<Response>(readFileSync(databasePath()));
  shared = {
    countryOf(ip) {
      if (!ip) return UNKNOWN_COUNTRY;
      const address = IPV4_MAPPED.exec(ip)?.[1] ?? ip;
      const family = isIP(address);
      if (family === 0 || NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6')) return UNKNOWN_COUNTRY;
      const code = (reader.get(address) as { country_code?: unknown } | null)?.country_code;
      return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : UNKNOWN_COUNTRY;
    },
  };
  return shared;
}
